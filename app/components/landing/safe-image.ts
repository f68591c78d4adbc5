import { isHttpUrl } from "~/lib/checks";

/**
 * An image address from the database, if it may be shown: an http(s) URL, or a path on this site
 * ("/demo/…"). Not "//host" or "/\host", which browsers read as another site.
 */
export function safeImageUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  if (isHttpUrl(url)) return url;
  if (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\")) return url;
  return null;
}
