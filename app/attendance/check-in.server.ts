// Check-in at the door (docs/decisions/019-check-in.md). Each participant of an event has a
// personal token (in their QR code) and a short code to type, both derived by HMAC from the
// server's SESSION_SECRET: nothing is stored, nothing can be guessed, and a token names the event
// and the person it is for. A check-in is attendance of the session under way (decision 044):
// `session_attendance` records who came to which session, and `participations.checked_in_at` the
// first time they came at all. Marking someone twice, from two phones or from a queue sent late,
// keeps the earliest time.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import {
  CHECK_IN_CODE_ALPHABET,
  CHECK_IN_CODE_LENGTH,
  CHECK_IN_TOKEN_PATTERN,
  formatCheckInCode,
  normalizeCheckInCode,
} from "~/attendance/check-in";
import type { Db } from "~/db/client.server";
import { events, participations, sessionAttendance, users, type User } from "~/db/schema.server";
import { closedDoorMessage, doorAt } from "./door";
import { eventDoors } from "./door-window.server";
import { nameOf } from "./attendance.server";
import { assertMay, may, mayAnyTime, type Grant } from "~/kernel/permissions";
import { recordAudit, type AuditActor } from "~/audit/audit.server";
import { isLinkHolder, linkAuthor, type LinkHolder } from "~/members/staff-links.server";
import { eventScope } from "~/events/event.server";
import { qrSvg } from "./qr.server";
import { Refusal } from "~/kernel/errors";
import { competitorIds, isCompetitor } from "./competitors.server";
import { registrationPaymentStatuses } from "~/payments/hold.server";
import type { PassView } from "./check-in";
import { passNotValid } from "~/payments/place-validity";
import { KERNEL_MESSAGES } from "~/kernel/messages";

type Admin =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "nombreCompleto" | "email"> & {
      grants?: readonly Grant[];
    })
  | LinkHolder
  | null;

/** A refused check-in: the message is the one the admin reads (Spanish), `status` the answer's. */
export class CheckInError extends Refusal {
  override name = "CheckInError";
  constructor(message: string, status: 400 | 404 | 409) {
    super(message, status);
  }
}

const MAC_BYTES = 16;

/** One key per purpose, derived from the server's secret, so a check-in MAC is never a cookie's. */
function keyFor(secret: string, purpose: "token" | "code"): Buffer {
  return createHmac("sha256", secret).update(`ayllu check-in ${purpose} v1`).digest();
}

function mac(secret: string, purpose: "token" | "code", eventId: string, userId: string): Buffer {
  return createHmac("sha256", keyFor(secret, purpose))
    .update(`${eventId.toLowerCase()}:${userId.toLowerCase()}`)
    .digest();
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const uuidOf = (bytes: Buffer) =>
  bytes.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");

/** The token in a participant's QR code: event id, member id and a MAC of both (base64url, 64 characters). */
export function checkInToken(secret: string, eventId: string, userId: string): string {
  return Buffer.concat([
    uuidBytes(eventId),
    uuidBytes(userId),
    mac(secret, "token", eventId, userId).subarray(0, MAC_BYTES),
  ]).toString("base64url");
}

/** The participant's short code: 8 characters without 0, 1, I, L or O, shown as ABCD-2345. */
export function checkInCode(secret: string, eventId: string, userId: string): string {
  let n = mac(secret, "code", eventId, userId).readBigUInt64BE(0);
  const base = BigInt(CHECK_IN_CODE_ALPHABET.length);
  let code = "";
  for (let i = 0; i < CHECK_IN_CODE_LENGTH; i++) {
    code += CHECK_IN_CODE_ALPHABET[Number(n % base)];
    n /= base;
  }
  return code;
}

/** The event and member a token was made for, if the server made it; null for anything else. */
export function readCheckInToken(
  secret: string,
  token: unknown,
): { eventId: string; userId: string } | null {
  if (typeof token !== "string" || !CHECK_IN_TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  const eventId = uuidOf(bytes.subarray(0, 16));
  const userId = uuidOf(bytes.subarray(16, 32));
  const expected = mac(secret, "token", eventId, userId).subarray(0, MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(32), expected)) return null;
  return { eventId, userId };
}

/** What the member's own pages show: the QR's token and the code to type. */
export function personalCheckIn(secret: string, eventId: string, userId: string) {
  return {
    token: checkInToken(secret, eventId, userId),
    code: checkInCode(secret, eventId, userId),
  };
}

/** The member's own uploaded photo, else their sign-in provider's (as photoOf in user.server.ts). */
const photoOf = sql<string | null>`coalesce(${users.ownPhotoUrl}, ${users.photoURL})`;

/** The name of who marked the participant present first, if any: a member, or a staff link. */
const byName = sql<string | null>`coalesce((
  select coalesce(nullif(marker.nombre_completo, ''), nullif(marker.display_name, ''), marker.email)
  from users marker where marker.id = ${participations.checkedInBy}), (
  select 'Enlace de registro «' || link.label || '»'
  from staff_links link where link.id = ${participations.checkedInByLink}))`;

/** The name of who marked a session's attendance: a member, or a staff link. */
const sessionMarker = sql<string | null>`coalesce((
  select coalesce(nullif(marker.nombre_completo, ''), nullif(marker.display_name, ''), marker.email)
  from users marker where marker.id = ${sessionAttendance.checkedInBy}), (
  select 'Enlace de registro «' || link.label || '»'
  from staff_links link where link.id = ${sessionAttendance.checkedInByLink}))`;

/**
 * The check-in page's data: the event and, for each participant, what a phone needs to recognise
 * them without a connection (name, photo, token, code) and whether they are in. Null: no event.
 */
export async function listCheckIn(
  db: Db,
  secret: string,
  actor: Admin,
  eventId: unknown,
  now: Date = new Date(),
) {
  const scope = (await eventScope(db, eventId, now)) ?? { eventId: String(eventId), now };
  // Door staff before or after their event's hours see the door closed, and no list.
  const closedToThem =
    !may(actor, "event.checkIn", scope) && mayAnyTime(actor, "event.checkIn", scope);
  if (!closedToThem) assertMay(actor, "event.checkIn", scope);
  if (!isUuid(eventId)) return null;
  const [event] = await db
    .select({ id: events.id, nombreEvento: events.nombreEvento, startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) return null;
  // The door is for the session under way (decisions 044 and 075): who is in is who came to it.
  const doors = (await eventDoors(db, event.id)) ?? [];
  const door = doorAt(doors, now);
  const current = door.open ? door.window : null;
  if (closedToThem) return { event, doors, door, session: null, participants: [] };
  const attended = current
    ? await db
        .select({
          userId: sessionAttendance.userId,
          at: sessionAttendance.checkedInAt,
          by: sessionMarker,
        })
        .from(sessionAttendance)
        .where(eq(sessionAttendance.sessionId, current.sessionId))
    : [];
  const byMember = new Map(attended.map((a) => [a.userId, a]));
  // Its participants, and its competitors not yet checked in (decision 055): a member or coach
  // of an approved team carries a pass without having registered.
  const rows = await db
    .select({
      userId: users.id,
      nombre: nameOf,
      photoURL: photoOf,
      competitor: sql<boolean>`${users.id} in ${competitorIds(event.id)}`,
    })
    .from(users)
    .where(
      sql`${users.id} in (select p.user_id from participations p where p.event_id = ${event.id}::uuid)
        or ${users.id} in ${competitorIds(event.id)}`,
    )
    .orderBy(asc(nameOf), asc(users.id));
  const paying = await registrationPaymentStatuses(db, event.id);
  return {
    event,
    /** Every session's door, for the phone to tell when it opens and closes without a connection. */
    doors,
    door,
    /** The session under way (its number among those not cancelled), if the door is open. */
    session: current
      ? { number: doors.indexOf(current) + 1, total: doors.length, ...current }
      : null,
    participants: rows.map(({ competitor, ...row }) => ({
      ...row,
      // The phone refuses such a pass without a connection too, with the same reason.
      notValid: competitor ? null : passNotValid(paying.get(row.userId)),
      checkedInAt: byMember.get(row.userId)?.at ?? null,
      checkedInBy: byMember.get(row.userId)?.by ?? null,
      ...personalCheckIn(secret, event.id, row.userId),
    })),
  };
}

export interface CheckInProof {
  /** The token of a scanned QR code. */
  token?: unknown;
  /** A typed short code (spaces, dashes and lower case are fine). */
  code?: unknown;
  /** When the person was marked on the admin's phone (ISO 8601), if it was earlier than now. */
  at?: unknown;
}

export interface CheckInResult {
  outcome: "checkedIn" | "already";
  /** The session the person was checked into. */
  sessionId: string;
  userId: string;
  nombre: string;
  photoURL: string | null;
  /** The time that counts: the first one, whichever phone marked it. */
  checkedInAt: Date;
  checkedInBy: string | null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The member a token or a typed code stands for, in this event. */
async function whoIs(
  db: Db,
  secret: string,
  eventId: string,
  proof: CheckInProof,
): Promise<string> {
  if (proof.token !== undefined && proof.token !== null && proof.token !== "") {
    const read = readCheckInToken(secret, proof.token);
    if (!read) throw new CheckInError(ATTENDANCE_MESSAGES.checkInTokenInvalid, 400);
    if (read.eventId !== eventId)
      throw new CheckInError(ATTENDANCE_MESSAGES.checkInTokenOtherEvent, 409);
    return read.userId;
  }
  if (proof.code === undefined || proof.code === null || proof.code === "")
    throw new CheckInError(ATTENDANCE_MESSAGES.checkInNoProof, 400);
  const code = normalizeCheckInCode(proof.code);
  if (!code) throw new CheckInError(ATTENDANCE_MESSAGES.checkInCodeMalformed, 400);
  // Codes are not stored: each participant's (and competitor's, decision 055) is made again and
  // compared (a few microseconds each).
  const members = await db
    .select({ userId: users.id })
    .from(users)
    .where(
      sql`${users.id} in (select p.user_id from participations p where p.event_id = ${eventId}::uuid)
        or ${users.id} in ${competitorIds(eventId)}`,
    );
  const found = members.find((m) => checkInCode(secret, eventId, m.userId) === code);
  if (!found) throw new CheckInError(ATTENDANCE_MESSAGES.checkInCodeUnknown, 404);
  return found.userId;
}

/**
 * Marks a participant present by their QR token or typed code. Idempotent: a second check-in (the
 * same phone again, another phone, a queue sent late) changes nothing but an earlier time, and
 * answers 'already' with the time that counts. The time is `proof.at` (when the phone marked it),
 * never later than now nor earlier than when the member joined.
 */
export async function checkIn(
  db: Db,
  secret: string,
  actor: Admin,
  eventId: unknown,
  proof: CheckInProof,
  now: Date = new Date(),
  timeZone: string = "America/La_Paz",
): Promise<CheckInResult> {
  const role = assertMay(
    actor,
    "event.checkIn",
    (await eventScope(db, eventId, now)) ?? {
      eventId: String(eventId),
      now,
    },
  );
  if (!isUuid(eventId)) throw new CheckInError(KERNEL_MESSAGES.eventNotFound, 404);
  let at = now;
  if (proof.at !== undefined && proof.at !== null && proof.at !== "") {
    const parsed =
      typeof proof.at === "string" && ISO_INSTANT.test(proof.at) ? new Date(proof.at) : null;
    if (!parsed || Number.isNaN(parsed.getTime()))
      throw new CheckInError(ATTENDANCE_MESSAGES.checkInTimeInvalid, 400);
    if (parsed < now) at = parsed;
  }
  const [event] = await db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) throw new CheckInError(KERNEL_MESSAGES.eventNotFound, 404);
  const userId = await whoIs(db, secret, event.id, proof);
  return db.transaction(async (tx) => {
    const where = and(eq(participations.eventId, event.id), eq(participations.userId, userId));
    const read = async (lock: boolean) => {
      const query = tx
        .select({
          joinedAt: participations.joinedAt,
          checkedInAt: participations.checkedInAt,
          checkedInBy: byName,
          nombre: nameOf,
          photoURL: photoOf,
        })
        .from(participations)
        .innerJoin(users, eq(users.id, participations.userId))
        .where(where);
      const [row] = await (lock ? query.for("update", { of: participations }) : query);
      return row;
    };
    let before = await read(true);
    if (!before && (await isCompetitor(tx, event.id, userId))) {
      // A competitor who did not register (decision 055): their participation takes no seat and
      // starts when the phone marked them, so a queued check-in keeps its time. The event row is
      // share-locked first, in the order a registration takes (event, then participation).
      await tx.execute(sql`select 1 from ${events} where ${events.id} = ${event.id} for key share`);
      await tx
        .insert(participations)
        .values({ userId, eventId: event.id, joinedAt: at, seat: false })
        .onConflictDoNothing();
      before = await read(true);
    }
    if (!before) throw new CheckInError(ATTENDANCE_MESSAGES.checkInNotParticipant, 404);
    const notValid = passNotValid(
      (await registrationPaymentStatuses(tx, event.id, [userId])).get(userId),
    );
    if (notValid && !(await isCompetitor(tx, event.id, userId)))
      throw new CheckInError(`${before.nombre}: ${notValid}`, 409);
    const when = at < before.joinedAt ? before.joinedAt : at;
    // The door decides (decision 075), at the time the phone marked the person: a queued
    // check-in counts for the session it was made in, not the one under way when it arrived.
    const door = doorAt((await eventDoors(tx, event.id)) ?? [], when);
    if (!door.open) throw new CheckInError(closedDoorMessage(door, now, timeZone), 409);
    const session = { id: door.window.sessionId };
    const holder = isLinkHolder(actor) ? actor : null;
    const by = {
      checkedInBy: holder ? null : actor!.id,
      checkedInByLink: holder ? holder.link.id : null,
    };
    const attendanceWhere = and(
      eq(sessionAttendance.sessionId, session.id),
      eq(sessionAttendance.userId, userId),
    );
    // The participation's row is locked, so two phones do not both find no attendance.
    const [earlier] = await tx
      .select({ at: sessionAttendance.checkedInAt })
      .from(sessionAttendance)
      .where(attendanceWhere);
    if (!earlier) {
      await tx
        .insert(sessionAttendance)
        .values({ sessionId: session.id, eventId: event.id, userId, checkedInAt: when, ...by });
    } else if (when < earlier.at) {
      // An earlier time (a queue sent late) corrects the record; the person was in either way.
      await tx
        .update(sessionAttendance)
        .set({ checkedInAt: when, ...by })
        .where(attendanceWhere);
    }
    if (!before.checkedInAt || when < before.checkedInAt) {
      // The participation keeps the first time the person came to any session.
      await tx
        .update(participations)
        .set({ checkedInAt: when, ...by })
        .where(where);
    }
    const row = (await read(false))!;
    if (!earlier) {
      await recordAudit(tx, {
        actor: holder ? { system: linkAuthor(holder.link.label) } : (actor as AuditActor),
        role,
        action: "checkIn",
        itemKind: "event",
        itemId: event.id,
        summary: `Registró la entrada de ${row.nombre}`,
      });
    }
    const [attended] = await tx
      .select({ at: sessionAttendance.checkedInAt, by: sessionMarker })
      .from(sessionAttendance)
      .where(attendanceWhere);
    return {
      outcome: earlier ? "already" : "checkedIn",
      sessionId: session.id,
      userId,
      nombre: row.nombre,
      photoURL: row.photoURL,
      checkedInAt: attended!.at,
      checkedInBy: attended!.by,
    };
  });
}

/**
 * A member's pass for an event they take part in: the QR code of their token (an SVG) and their
 * code as they read it (ABCD-2345) — or, while their place waits for a payment treasury has not
 * confirmed (`paymentStatus`), the reason it is not a pass yet and no code to scan. A competitor's
 * pass is valid whatever their own registration: their team's place is what counts at the door.
 */
export function checkInPass(
  secret: string,
  event: { id: string; nombreEvento: string },
  userId: string,
  paymentStatus: string | null | undefined,
): PassView {
  const reason = passNotValid(paymentStatus);
  if (reason) return { valid: false, reason };
  const { token, code } = personalCheckIn(secret, event.id, userId);
  return {
    valid: true,
    qr: qrSvg(token, `Código QR de registro para ${event.nombreEvento}`),
    code: formatCheckInCode(code),
  };
}

/** `checkInPass` for one member at one event, with their registration's payment read here. */
export async function memberPass(
  db: Db,
  secret: string,
  event: { id: string; nombreEvento: string },
  userId: string,
): Promise<PassView> {
  const status = (await registrationPaymentStatuses(db, event.id, [userId])).get(userId);
  const competitor = passNotValid(status) !== null && (await isCompetitor(db, event.id, userId));
  return checkInPass(secret, event, userId, competitor ? null : status);
}
