// Link previews (docs/decisions/046-link-previews.md): every page names a picture of 1200 × 630 for
// WhatsApp, Telegram and the rest. A route whose page is about one item says which card in its
// `handle` (`linkCard`, from the page's own data); every other page shows the site's card. The
// root layout writes the tags, with PUBLIC_URL's origin, so no page goes without.

export const CARD_SIZE = { width: 1200, height: 630 } as const;

export type CardKind = "evento" | "nota" | "recurso" | "proyecto";

export interface LinkCardHandle<Data> {
  linkCard: (data: Data | undefined) => string | null;
}

/** The card of one item, as a path of this site. */
export function cardPath(kind: CardKind, id: string): string {
  return `/og/${kind}/${id}`;
}

export const SITE_CARD = "/og/sitio";

/** The card a page shows: its route's, or the site's. */
export function pageCard(match: { handle?: unknown; data?: unknown } | undefined): string {
  const handle = match?.handle as Partial<LinkCardHandle<unknown>> | undefined;
  return (match && handle?.linkCard?.(match.data)) ?? SITE_CARD;
}
