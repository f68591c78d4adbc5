// What the site keeps on a member's device, and when the device must forget it
// (docs/decisions/019-check-in.md, 050-mis-entradas-offline.md). Two pages keep copies for use
// without a connection: an admin's check-in list and a member's own passes (/mis-entradas). The
// browser forgets all of it when told `Clear-Site-Data: "storage"`: on signing out, and on a
// sign-in by someone other than the member whose passes this device keeps. A cookie says whose they
// are — an HMAC of the member's id, so it names no one by itself — because a session may end
// (expired, or ended from another device) without this device signing out.
import { createHmac } from "node:crypto";
import { readCookie, serializeCookie } from "./session.server";

interface CookieSettings {
  secure: boolean;
}

/** As long as a browser keeps a cookie (400 days): longer than any copy is left unopened. */
const MARK_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

function markName(settings: CookieSettings): string {
  return settings.secure ? "__Host-ayllu_copia" : "ayllu_copia";
}

function markOf(secret: string, userId: string): string {
  const key = createHmac("sha256", secret).update("ayllu device copy v1").digest();
  return createHmac("sha256", key)
    .update(userId.toLowerCase())
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** The Set-Cookie that says this device keeps `userId`'s passes (sent with /mis-entradas). */
export function markDeviceCopy(secret: string, userId: string, settings: CookieSettings): string {
  return serializeCookie(markName(settings), markOf(secret, userId), {
    ...settings,
    maxAgeSeconds: MARK_MAX_AGE_SECONDS,
  });
}

/**
 * Tells the browser to forget what the site stored on this device (IndexedDB, Cache Storage, the
 * service workers; not cookies) and the mark of whose copy it was. For a response that ends the
 * device's session, or starts one for someone else.
 */
export function forgetDeviceCopy<T extends Response>(response: T, settings: CookieSettings): T {
  response.headers.set("Clear-Site-Data", '"storage"');
  response.headers.append(
    "Set-Cookie",
    serializeCookie(markName(settings), "", { ...settings, maxAgeSeconds: 0 }),
  );
  return response;
}

/**
 * A sign-in's redirect: when this device keeps another member's passes, the device forgets them
 * (the new member's own stay, and so does an admin's check-in queue when the admin signs in again).
 */
export function afterSignIn<T extends Response>(
  response: T,
  request: Request,
  secret: string,
  userId: string,
  settings: CookieSettings,
): T {
  const mark = readCookie(request, markName(settings));
  if (mark !== undefined && mark !== markOf(secret, userId)) forgetDeviceCopy(response, settings);
  return response;
}
