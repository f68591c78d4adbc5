import { safeImageUrl } from "~/kernel/checks";

const PLACEHOLDER_IMAGE = "/event-placeholder.svg";

/** An event's image; a placeholder when it is missing or not an http(s) or site-relative URL. */
export function imageSrc(src: string | null | undefined): string {
  return safeImageUrl(src) ?? PLACEHOLDER_IMAGE;
}
