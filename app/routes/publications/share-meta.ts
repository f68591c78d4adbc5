// Title, description and OpenGraph tags for a public content page (PRODUCT.md: shareable pages).
import { safeImageUrl } from "~/kernel/checks";

interface ShareInfo {
  title: string;
  description: string;
  /** An http(s) URL or a path on this site; anything else is left out. */
  image: string | null;
  /** The page's absolute URL. */
  url: string;
  type?: "website" | "article";
}

export function absoluteImage(image: string | null | undefined, origin: string): string | null {
  const safe = safeImageUrl(image);
  if (!safe) return null;
  return safe.startsWith("/") ? new URL(safe, origin).toString() : safe;
}

export function shareMeta(info: ShareInfo) {
  const title = `${info.title} — Ayllu`;
  const tags: Array<Record<string, string>> = [
    { title },
    { name: "description", content: info.description },
    { property: "og:title", content: info.title },
    { property: "og:description", content: info.description },
    { property: "og:type", content: info.type ?? "article" },
    { property: "og:url", content: info.url },
    { property: "og:site_name", content: "Ayllu" },
    { tagName: "link", rel: "canonical", href: info.url },
  ];
  if (info.image) tags.push({ property: "og:image", content: info.image });
  tags.push({ name: "twitter:card", content: info.image ? "summary_large_image" : "summary" });
  return tags;
}
