// The shape of check-in tokens and codes, shared by the server (which makes and checks them,
// app/attendance/check-in.server.ts) and the check-in page (which recognises them offline), and
// the list and answers the page and its data route exchange.
import type { DoorWindowView } from "./door";

/** Letters and digits a person reads and types without confusion: no 0, 1, I, L or O. */
export const CHECK_IN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const CHECK_IN_CODE_LENGTH = 8;
/** The code field's length: room for a code typed with spaces or dashes. */
export const CHECK_IN_CODE_FIELD_MAX = 20;
/** A QR token: 16 bytes of event id, 16 of member id, 16 of MAC, in base64url. */
export const CHECK_IN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{64}$/;

/** A typed code in its stored form (upper case, no spaces or dashes), or null if it cannot be one. */
export function normalizeCheckInCode(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 40) return null;
  const code = value.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== CHECK_IN_CODE_LENGTH) return null;
  for (const c of code) if (!CHECK_IN_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** ABCD2345 → "ABCD-2345", as the member's pages show it. */
export function formatCheckInCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The event id a token names (without checking its MAC: only the server can), or null. */
export function eventIdOfToken(token: string): string | null {
  if (!CHECK_IN_TOKEN_PATTERN.test(token)) return null;
  const binary = atob(token.slice(0, 22).replace(/-/g, "+").replace(/_/g, "/") + "==");
  let hex = "";
  for (let i = 0; i < 16; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, "0");
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}

/** One participant as the check-in page and the phone's copy hold them (times as ISO strings). */
export interface CheckInPerson {
  userId: string;
  nombre: string;
  photoURL: string | null;
  token: string;
  code: string;
  checkedInAt: string | null;
  checkedInBy: string | null;
  /** Why their pass does not open the door yet (a payment treasury has not confirmed), if so. */
  notValid: string | null;
}

/** A member's pass as their pages show it: valid with its code, or why not yet. */
export type PassView = { valid: true; qr: string; code: string } | { valid: false; reason: string };

/** An event's participant list as the check-in page receives it and the phone keeps it. */
export interface CheckInPayload {
  generatedAt: string;
  event: { id: string; nombreEvento: string; startsAt: string };
  /** When the door of each session opens and closes (./door.ts), so the phone knows offline too. */
  doors: DoorWindowView[];
  participants: CheckInPerson[];
}

/** A check-in's answer: the person and the time that counts, or why it was refused. */
export type CheckInReply =
  | {
      ok: true;
      outcome: "checkedIn" | "already";
      userId: string;
      nombre: string;
      photoURL: string | null;
      checkedInAt: string;
      checkedInBy: string | null;
    }
  | { ok: false; message: string };
