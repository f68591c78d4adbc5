// A one-time message carried across a redirect ("Datos adicionales guardados con éxito!").
import { redirect, type AppLoadContext } from "react-router";
import { isMessageKey, type MessageKey } from "~/messages";
import { readCookie, serializeCookie } from "~/members/session.server";

/** The site's cookies are Secure (and __Host- prefixed) when it is served over https. */
export function cookieSettings(context: AppLoadContext) {
  return { secure: context.config.publicUrl.protocol === "https:" };
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
