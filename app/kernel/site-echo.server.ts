// How the site knows, from the outside, that it is itself answering: /healthz answers a challenge
// sent in a header with a keyed hash of it (the session secret, shared by every process of the
// site), so Diagnóstico can fetch PUBLIC_URL and tell this site from another server at that address.
import { createHmac } from "node:crypto";

export const ECHO_HEADER = "x-ayllu-eco";

/** The longest challenge answered. */
export const ECHO_CHALLENGE_MAX = 64;

export function siteEcho(secret: string, challenge: string): string {
  return createHmac("sha256", secret)
    .update(`diagnostico:${challenge}`)
    .digest("base64url")
    .slice(0, 32);
}
