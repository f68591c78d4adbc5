// Title, description and OpenGraph tags for a public content page (PRODUCT.md: shareable pages).

interface ShareInfo {
  title: string;
  description: string;
  /** The page's absolute URL. */
  url: string;
  type?: "website" | "article";
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
    { tagName: "link", rel: "canonical", href: info.url },
  ];
  // The picture and its card type are the root layout's (decision 048).
  return tags;
}
