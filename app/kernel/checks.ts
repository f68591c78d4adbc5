// Plain checks shared by the browser and the server, without the validation library (so that
// pages which only need these do not download zod, whose start-up probes for eval and trips the
// Content-Security-Policy).

/**
 * Control characters no text field may hold: NUL (PostgreSQL cannot store it) and the other C0
 * controls and DEL, which no keyboard types. Tab, line feed and carriage return stay: multi-line
 * fields hold them, and a one-line field's schema collapses them as it collapses spaces.
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A calendar date written YYYY-MM-DD that really exists (no 2025-02-30). */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A path on this site to come back to after signing in; anything else is ignored. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters are exactly what this check refuses.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://ayllu.invalid");
    if (url.origin !== "http://ayllu.invalid") return fallback;
    // Dot segments collapse: "/..//evil.example" normalizes to "//evil.example", another site.
    if (url.pathname.startsWith("//")) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** Only http: and https: URLs are stored anywhere (never javascript:, data:, …). */
export function isHttpUrl(value: string): boolean {
  // Without a colon nothing parses as an absolute URL: say so without the exception, which costs
  // ten times the parse (most images are paths on this site, "/imagenes/…").
  if (!value.includes(":")) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtu.be",
  "www.youtube-nocookie.com",
  "youtube-nocookie.com",
]);

/** The video id of a YouTube URL (watch?v=, youtu.be/, /embed/, /shorts/, /live/), or null. */
export function youtubeVideoId(value: string): string | null {
  if (!isHttpUrl(value)) return null;
  const url = new URL(value);
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  let id: string | null | undefined;
  if (url.hostname === "youtu.be") id = url.pathname.split("/")[1];
  else if (url.pathname === "/watch") id = url.searchParams.get("v");
  else id = /^\/(?:embed|shorts|live|v)\/([^/?#]+)/.exec(url.pathname)?.[1];
  return id && /^[A-Za-z0-9_-]{6,20}$/.test(id) ? id : null;
}

/** A uuid as used by every id in the database; anything else is "not found". */
export function isUuid(value: unknown): value is string {
  return (
    typeof value === "string" &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  );
}

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
