import { site } from "~/site/copy/site";

/** Every page's <title>: its own words, then the site's name, joined by one separator. */
const TITLE_SEPARATOR = " — ";

export function pageTitle(...parts: string[]): string {
  return [...parts, site.name].join(TITLE_SEPARATOR);
}
