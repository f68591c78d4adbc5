// 'Modo liviano' (decision 049): pages without the shader, animations, web font, video frames or,
// on public pages, any script, and with the smallest pictures. On when the browser sends
// `Save-Data: on` or the person has turned it on; the person's choice, either way, wins.
/** The cookie that remembers the choice: "1" on, "0" off. Not one of the site's `ayllu_`
 *  cookies: visitors who carry it still get pages from the page cache (its own variant). */
export const LIGHT_COOKIE = "liviano";

/** Where the menu's switch posts (decision 077). */
export const LIGHT_MODE_PATH = "/liviano";

/** The person's choice read from a Cookie header: true, false, or null when they made none. */
export function lightChoice(cookieHeader: string | null | undefined): boolean | null {
  if (!cookieHeader) return null;
  const match = /(?:^|;)\s*liviano=([01])\s*(?:;|$)/.exec(cookieHeader);
  return match ? match[1] === "1" : null;
}

/** Whether a request gets the light pages. */
export function isLightRequest(
  cookieHeader: string | null | undefined,
  saveData: string | string[] | null | undefined,
): boolean {
  const choice = lightChoice(cookieHeader);
  if (choice !== null) return choice;
  const header = Array.isArray(saveData) ? saveData.join(",") : (saveData ?? "");
  return /(?:^|,)\s*on\s*(?:,|$)/i.test(header);
}

/**
 * A route whose page works without scripts says so in its `handle`; in light mode its page is
 * sent without any. Pages that need scripts (the admin's, the check-in) keep them.
 */
export interface WithoutScripts {
  withoutScripts?: boolean;
}

export const worksWithoutScripts: WithoutScripts = { withoutScripts: true };
