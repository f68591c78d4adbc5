// Staff links (docs/decisions/041-staff-links.md): an event's organisers and admins make a link for
// a door volunteer without an account. Opening it on a phone keeps the link's token in a cookie;
// every request reads the link again (revoked or expired: nothing more), and the capability table
// gives its holder one thing, the `doorLink` role: that event's check-in, within its door hours.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, staffLinks, type User } from "~/db/schema.server";
import { auditName, recordAudit } from "~/audit/audit.server";
import { isRealDate, isUuid } from "~/kernel/checks";
import { EventNotFoundError, Refusal } from "~/kernel/errors";
import { formatDateTime, zonedDateTime, zonedToInstant } from "~/kernel/time";
import { MEMBER_MESSAGES } from "./messages";
import { assertMay, type Actor, type Grant } from "~/kernel/permissions";
import { readCookie, serializeCookie } from "./session.server";

/** A refused staff link or link form: the Spanish message, its status, and the field it is about. */
export class StaffLinkError extends Refusal {
  override name = "StaffLinkError";
  constructor(message: string, status: 400 | 404 | 409 | 410, field?: "nombre" | "vence") {
    super(message, status, { field });
  }
}

/** Whoever opened a staff link: no account, one grant (check-in of its event), its link. */
export interface LinkHolder {
  isAdmin: false;
  id?: undefined;
  grants: Grant[];
  link: { id: string; label: string; eventId: string };
}

export const STAFF_LINK_LABEL_MAX = 80;
/** The longest a link may last. */
const MAX_DAYS = 366;
const DAY = 86_400_000;
const HOUR = 3_600_000;

const RANDOM_BYTES = 24;
const MAC_BYTES = 12;
/** 36 bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{48}$/;

function macOf(secret: string, random: Buffer): Buffer {
  const key = createHmac("sha256", secret).update("ayllu staff link v1").digest();
  return createHmac("sha256", key).update(random).digest().subarray(0, MAC_BYTES);
}

/** A new token: random, signed with the server's secret so that a forged one is told apart without the database. */
function newToken(secret: string): string {
  const random = randomBytes(RANDOM_BYTES);
  return Buffer.concat([random, macOf(secret, random)]).toString("base64url");
}

/** Whether `token` has the shape and signature of a token this server made. */
export function isSignedToken(secret: string, token: unknown): token is string {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) return false;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== RANDOM_BYTES + MAC_BYTES) return false;
  return timingSafeEqual(
    bytes.subarray(RANDOM_BYTES),
    macOf(secret, bytes.subarray(0, RANDOM_BYTES)),
  );
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The address that opens a link. */
export function staffLinkPath(token: string): string {
  return `/puerta/${token}`;
}

type Author = Actor & Pick<User, "id" | "displayName" | "nombreCompleto" | "email">;

export type StaffLinkState = "active" | "expired" | "revoked";

function stateOf(link: { revokedAt: Date | null; expiresAt: Date }, now: Date): StaffLinkState {
  if (link.revokedAt) return "revoked";
  return link.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}

/** The event of a link form, after the person was allowed: a 404 when it does not exist. */
async function eventFor(db: Db, actor: Actor | null, eventId: unknown, now: Date) {
  if (!isUuid(eventId)) {
    // Still refuse those without rights first, so that a refusal never tells what exists.
    assertMay(actor, "event.staffLinks", { now });
    throw new EventNotFoundError();
  }
  const role = assertMay(actor, "event.staffLinks", { eventId, now });
  const [event] = await db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      endsAt: events.endsAt,
      doorHoursAfter: events.doorHoursAfter,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) throw new EventNotFoundError();
  return { event, role };
}

/** The default expiry: the end of the event's door hours. */
export function defaultExpiry(event: { endsAt: Date; doorHoursAfter: number }): Date {
  return new Date(event.endsAt.getTime() + event.doorHoursAfter * HOUR);
}

/** The expiry as a `datetime-local` field shows it, in the site's zone. */
export function expiryField(instant: Date, timeZone: string): string {
  const local = zonedDateTime(instant, timeZone);
  return `${local.date}T${local.time}`;
}

function readLabel(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkLabelMissing, 400, "nombre");
  const label = value.trim();
  if ([...label].length > STAFF_LINK_LABEL_MAX)
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkLabelTooLong, 400, "nombre");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(label))
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkLabelInvalid, 400, "nombre");
  return label;
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

function readExpiry(value: unknown, fallback: Date, timeZone: string, now: Date): Date {
  let at = fallback;
  if (value !== undefined && value !== null && value !== "") {
    const match = typeof value === "string" ? LOCAL_DATE_TIME.exec(value.trim()) : null;
    if (!match || !isRealDate(match[1]!) || Number(match[2]) > 23 || Number(match[3]) > 59)
      throw new StaffLinkError(MEMBER_MESSAGES.staffLinkExpiryInvalid, 400, "vence");
    at = zonedToInstant(match[1]!, `${match[2]}:${match[3]}`, timeZone);
  }
  if (at.getTime() <= now.getTime())
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkExpiryPast, 400, "vence");
  if (at.getTime() > now.getTime() + MAX_DAYS * DAY)
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkExpiryTooFar, 400, "vence");
  return at;
}

/**
 * Makes a staff link for an event: admins and its organisers. Returns the token, which is not
 * kept (only its hash): the page shows the link this once.
 */
export async function createStaffLink(
  db: Db,
  secret: string,
  actor: Author | null,
  eventId: unknown,
  input: { label: unknown; expiresAt?: unknown },
  timeZone: string,
  now: Date = new Date(),
) {
  const { event, role } = await eventFor(db, actor, eventId, now);
  const label = readLabel(input.label);
  const expiresAt = readExpiry(input.expiresAt, defaultExpiry(event), timeZone, now);
  const token = newToken(secret);
  const link = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffLinks)
      .values({
        eventId: event.id,
        label,
        tokenHash: hashOf(token),
        expiresAt,
        createdBy: actor!.id,
        createdByName: auditName(actor!),
        createdAt: now,
      })
      .returning();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "staffLink.create",
      itemKind: "event",
      itemId: event.id,
      summary: `Creó el enlace de registro «${label}» de «${event.nombreEvento}», vence el ${formatDateTime(expiresAt, timeZone)}`,
    });
    return row!;
  });
  return { link, token };
}

/** Revokes a link: whoever holds it can do nothing more, from their next request. */
export async function revokeStaffLink(
  db: Db,
  actor: Author | null,
  eventId: unknown,
  linkId: unknown,
  now: Date = new Date(),
): Promise<void> {
  const { event, role } = await eventFor(db, actor, eventId, now);
  if (!isUuid(linkId)) throw new StaffLinkError(MEMBER_MESSAGES.staffLinkNotFound, 404);
  await db.transaction(async (tx) => {
    const [link] = await tx
      .select({ id: staffLinks.id, label: staffLinks.label, revokedAt: staffLinks.revokedAt })
      .from(staffLinks)
      .where(and(eq(staffLinks.id, linkId), eq(staffLinks.eventId, event.id)))
      .for("update");
    if (!link) throw new StaffLinkError(MEMBER_MESSAGES.staffLinkNotFound, 404);
    if (link.revokedAt) throw new StaffLinkError(MEMBER_MESSAGES.staffLinkAlreadyRevoked, 409);
    await tx
      .update(staffLinks)
      .set({ revokedAt: now, revokedBy: actor!.id })
      .where(and(eq(staffLinks.id, link.id), isNull(staffLinks.revokedAt)));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "staffLink.revoke",
      itemKind: "event",
      itemId: event.id,
      summary: `Revocó el enlace de registro «${link.label}» de «${event.nombreEvento}»`,
    });
  });
}

export interface StaffLinkRow {
  id: string;
  label: string;
  state: StaffLinkState;
  expiresAt: Date;
  createdAt: Date;
  createdByName: string;
  revokedAt: Date | null;
}

/** An event's links, newest first, with their state: for admins and its organisers. */
export async function listStaffLinks(
  db: Db,
  actor: Actor | null,
  eventId: string,
  now: Date = new Date(),
): Promise<StaffLinkRow[]> {
  assertMay(actor, "event.staffLinks", { eventId, now });
  const rows = await db
    .select()
    .from(staffLinks)
    .where(eq(staffLinks.eventId, eventId))
    .orderBy(desc(staffLinks.createdAt), desc(staffLinks.id));
  return rows.map((r) => ({
    id: r.id,
    label: r.label,
    state: stateOf(r, now),
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    createdByName: r.createdByName,
    revokedAt: r.revokedAt,
  }));
}

/**
 * The link a token opens, still usable now, with its event: a forged or unknown token is a 404,
 * a revoked or expired link a 410, each with the reason in Spanish.
 */
export async function findStaffLink(
  db: Db,
  secret: string,
  token: unknown,
  now: Date = new Date(),
) {
  if (!isSignedToken(secret, token))
    throw new StaffLinkError(MEMBER_MESSAGES.staffLinkInvalid, 404);
  const [row] = await db
    .select({
      id: staffLinks.id,
      label: staffLinks.label,
      eventId: staffLinks.eventId,
      expiresAt: staffLinks.expiresAt,
      revokedAt: staffLinks.revokedAt,
      nombreEvento: events.nombreEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
    })
    .from(staffLinks)
    .innerJoin(events, eq(events.id, staffLinks.eventId))
    .where(eq(staffLinks.tokenHash, hashOf(token)))
    .limit(1);
  if (!row) throw new StaffLinkError(MEMBER_MESSAGES.staffLinkInvalid, 404);
  const state = stateOf(row, now);
  if (state === "revoked") throw new StaffLinkError(MEMBER_MESSAGES.staffLinkWasRevoked, 410);
  if (state === "expired") throw new StaffLinkError(MEMBER_MESSAGES.staffLinkExpired, 410);
  return row;
}

/**
 * Opens a link on this phone: checks it as findStaffLink does and records the opening. Returns the
 * link and the cookie that keeps it on the phone until it expires.
 */
export async function openStaffLink(
  db: Db,
  secret: string,
  token: unknown,
  settings: { secure: boolean },
  now: Date = new Date(),
) {
  const link = await findStaffLink(db, secret, token, now);
  await recordAudit(db, {
    actor: { system: linkAuthor(link.label) },
    role: "doorLink",
    action: "staffLink.open",
    itemKind: "event",
    itemId: link.eventId,
    summary: `Se abrió el enlace de registro «${link.label}» de «${link.nombreEvento}»`,
  });
  const seconds = Math.max(1, Math.ceil((link.expiresAt.getTime() - now.getTime()) / 1000));
  const cookie = serializeCookie(staffCookieName(settings), token as string, {
    ...settings,
    maxAgeSeconds: seconds,
  });
  return { link, cookie };
}

/** The name the audit log gives what a link's holder did. */
export function linkAuthor(label: string): string {
  return `Enlace de registro «${label}»`;
}

export function staffCookieName(settings: { secure: boolean }): string {
  return settings.secure ? "__Host-ayllu_puerta" : "ayllu_puerta";
}

/** What this request's staff-link cookie gives: nothing (no cookie), its holder, or why not. */
export type HolderLookup = { holder: LinkHolder } | { refusal: StaffLinkError } | null;

/** Read on every request that carries the cookie: a revoked or expired link ends its sessions at once. */
export async function linkHolderOf(
  db: Db,
  secret: string,
  request: Request,
  settings: { secure: boolean },
  now: Date = new Date(),
): Promise<HolderLookup> {
  const token = readCookie(request, staffCookieName(settings));
  if (token === undefined || token === "") return null;
  try {
    const link = await findStaffLink(db, secret, token, now);
    return {
      holder: {
        isAdmin: false,
        grants: [{ kind: "doorLink", eventId: link.eventId }],
        link: { id: link.id, label: link.label, eventId: link.eventId },
      },
    };
  } catch (error) {
    if (error instanceof StaffLinkError) return { refusal: error };
    throw error;
  }
}

export function isLinkHolder(actor: unknown): actor is LinkHolder {
  return typeof actor === "object" && actor !== null && "link" in actor;
}
