// A one-time message carried across a redirect ("Datos adicionales guardados con éxito!").
import { isMessageKey, type MessageKey } from "~/messages";
import { readCookie, serializeCookie } from "~/members/session.server";

const FLASH_COOKIE = "ayllu_flash";

export function flashCookie(key: MessageKey, secure: boolean): string {
  return serializeCookie(FLASH_COOKIE, key, { secure, maxAgeSeconds: 60 });
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
