import { isHttpUrl } from "~/lib/checks";

export const PLACEHOLDER_IMAGE = "/event-placeholder.svg";

/** An event's image; a placeholder when it is missing or not an http(s) or site-relative URL. */
export function imageSrc(src: string | null | undefined): string {
  if (!src) return PLACEHOLDER_IMAGE;
  if (isHttpUrl(src)) return src;
  if (src.startsWith("/") && !src.startsWith("//")) return src;
  return PLACEHOLDER_IMAGE;
}
