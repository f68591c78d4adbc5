// The landing pages' editable content (/admin/sitio, docs/decisions/023-site-content.md): what
// each section holds, and the small rules the pages apply to it. Light on purpose: every page's
// root loader uses it. The forms' specs are in site-sections.ts, the schemas in
// section-schemas.ts.
import { isHttpUrl, safeRedirectPath } from "~/kernel/checks";

export type Row<Names extends string> = Record<Names, string>;

/** A course card; `eventId`: the site's event it registers in (decision 048), "" for none. */
type CourseRow = Row<"title" | "subtitle" | "dates" | "image" | "href" | "linkLabel"> & {
  eventId?: string;
};

export interface SiteSections {
  hero: { eyebrow: string; title: string; lead: string };
  leaders: { leaders: Row<"name" | "role" | "image">[] };
  allies: { allies: Row<"name" | "description" | "logo" | "href">[] };
  sponsors: { intro: string; sponsors: Row<"name" | "description" | "logo" | "href">[] };
  courses: {
    current: CourseRow[];
    past: CourseRow[];
  };
  competition: {
    edition: string;
    dateLabel: string;
    dateIso: string;
    tagline: string;
    /** `eventId`: the site's competition the item links to (decision 051), "" for none. */
    events: (Row<"name" | "when" | "href"> & { eventId?: string })[];
    benefits: Row<"title" | "text">[];
  };
  venue: {
    storeTitle: string;
    storeText: string;
    storeImage: string;
    storeHref: string;
    location: string;
    venueImage: string;
  };
  course: {
    heading: string;
    intro: string;
    name: string;
    price: string;
    dates: string;
    summary: string;
    image: string;
    description: string;
    /** One of the site's events: 'Inscríbete Ahora' registers in it (decision 048); "" for none. */
    eventId: string;
    formHref: string;
    groupLabel: string;
    groupHref: string;
    slides: Row<"title" | "text" | "image" | "imageAlt">[];
  };
  social: { links: string[] };
}

export type SiteSectionKey = keyof SiteSections;

// ——— What the pages make of the content ———

/** A page of this site ("/clase1"), not "//host" or anything a browser reads as another site. */
export function isSitePath(value: string): boolean {
  return value.startsWith("/") && safeRedirectPath(value, "") === value;
}

const SOCIAL_NAMES: [RegExp, string][] = [
  [/(^|\.)facebook\.com$|(^|\.)fb\.com$/, "Facebook"],
  [/(^|\.)instagram\.com$/, "Instagram"],
  [/(^|\.)youtube\.com$|^youtu\.be$/, "YouTube"],
  [/(^|\.)github\.com$/, "GitHub"],
  [/(^|\.)gitlab\.com$/, "GitLab"],
  [/(^|\.)tiktok\.com$/, "TikTok"],
  [/(^|\.)linkedin\.com$/, "LinkedIn"],
  [/(^|\.)x\.com$|(^|\.)twitter\.com$/, "X"],
  [/(^|\.)whatsapp\.com$|^wa\.me$/, "WhatsApp"],
  [/^t\.me$|(^|\.)telegram\.(me|org)$/, "Telegram"],
  [/(^|\.)discord\.(gg|com)$/, "Discord"],
  [/(^|\.)mastodon\.\w+$/, "Mastodon"],
];

/** The name a social link is shown with: the network's, or else the site's host. */
export function socialLabel(href: string): string {
  let host: string;
  try {
    host = new URL(href).hostname.toLowerCase();
  } catch {
    return href;
  }
  return SOCIAL_NAMES.find(([pattern]) => pattern.test(host))?.[1] ?? host.replace(/^www\./, "");
}

export interface SocialLink {
  label: string;
  href: string;
}

export function socialLinks(content: SiteSections["social"]): SocialLink[] {
  return content.links.filter(isHttpUrl).map((href) => ({ label: socialLabel(href), href }));
}

/**
 * The home page's sections that have something to show, in page order: hero, events, articles
 * and featured always; community with people or logos, courses with courses.
 */
export function homeSectionsShown(
  content: Pick<SiteSections, "leaders" | "allies" | "sponsors" | "courses">,
): string[] {
  const community =
    content.leaders.leaders.length +
      content.allies.allies.length +
      content.sponsors.sponsors.length >
    0;
  const courses = content.courses.current.length + content.courses.past.length > 0;
  return [
    "hero",
    ...(community ? ["community"] : []),
    ...(courses ? ["courses"] : []),
    "events",
    "articles",
    "featured",
  ];
}
