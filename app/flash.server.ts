// A one-time message carried across a redirect ("Datos adicionales guardados con éxito!").
import { redirect, type AppLoadContext } from "react-router";
import { isMessageKey, type MessageKey } from "~/messages";
import { readCookie, serializeCookie } from "~/members/session.server";

/**
 * The site's cookies are Secure (and __Host- prefixed) when it is served over https: when
 * PUBLIC_URL is https, for requests at that address or through a proxy (which names the client in
 * X-Forwarded-For, whatever Host it passes on). A request straight to another address (PUBLIC_URL
 * is wrong, and the admin came in by a console link to read Diagnóstico, decision 074) follows
 * the scheme it came by: a browser on plain http drops a Secure cookie, and nobody could stay
 * signed in there.
 */
export function cookieSettings(context: AppLoadContext) {
  const { publicUrl } = context.config;
  // A context built by hand (a route called directly) may not say how its request was seen: it is
  // taken as at the published address, as before cookies followed the request.
  const seen = (context as Partial<AppLoadContext>).requestSeen?.() ?? null;
  const asPublished =
    seen === null ||
    seen.host.toLowerCase() === publicUrl.hostname.toLowerCase() ||
    seen.forwardedFor !== null;
  return { secure: asPublished ? publicUrl.protocol === "https:" : seen.protocol === "https" };
}

const FLASH_COOKIE = "ayllu_flash";

export function flashCookie(key: MessageKey, secure: boolean): string {
  return serializeCookie(FLASH_COOKIE, key, { secure, maxAgeSeconds: 60 });
}

/**
 * The one way an action or loader redirects with a message: `to`, showing `key` there once.
 * `cookies` are other Set-Cookie values the redirect carries (a session ended, say).
 */
export function redirectWithFlash(
  context: AppLoadContext,
  to: string,
  key: MessageKey,
  cookies: readonly string[] = [],
): Response {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", flashCookie(key, cookieSettings(context).secure));
  return redirect(to, { headers });
}

/** The pending message of this request, and the header that clears it. */
export function takeFlash(
  request: Request,
  secure: boolean,
): { key: MessageKey | null; setCookie: string | null } {
  const value = readCookie(request, FLASH_COOKIE);
  if (value === undefined) return { key: null, setCookie: null };
  return {
    key: isMessageKey(value) ? value : null,
    setCookie: serializeCookie(FLASH_COOKIE, "", { secure, maxAgeSeconds: 0 }),
  };
}
