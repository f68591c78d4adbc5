// Certificates of attendance: who may have one, and the public check of a certificate's code
// (docs/decisions/020-certificates.md). A certificate exists for a participation that attended
// the event's share of sessions (decision 044), once its event has ended; its code was made with
// the participation.
import { and, eq, lte, sql } from "drizzle-orm";
import { ATTENDANCE_MESSAGES, certificateShareNotReached } from "~/attendance/messages";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { events, participations, users, type User } from "~/db/schema.server";
import { hasEnded } from "~/events/event.server";
import { may, type Grant } from "~/kernel/permissions";
import { Refusal } from "~/kernel/errors";
import {
  attendedCount,
  attendedSeconds,
  reachesShare,
  sessionCount,
} from "./event-session-attendance.server";
import { KERNEL_MESSAGES } from "~/kernel/messages";

export { reachesShare };

/** Crockford's base32: digits and capitals without I, L, O and U, which are read as others. */
const CODE = /^[0-9A-HJKMNP-TV-Z]{12}$/;

/**
 * A code as a person may type it or a link may carry it ("abcd-efgh-jkmn", with spaces, an O
 * for a zero, an I or L for a one) in its stored form, or null when it cannot be one.
 */
export function parseCertificateCode(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length > 40) return null;
  const code = raw.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return CODE.test(code) ? code : null;
}

/** "ABCD-EFGH-JKMN": the stored code in groups of four, as it is printed and linked. */
export function formatCertificateCode(code: string): string {
  return code.match(/.{1,4}/g)!.join("-");
}

/** The public page that confirms a certificate: what its QR code points to. */
export function certificateUrl(publicUrl: URL, code: string): string {
  return new URL(`/certificados/${formatCertificateCode(code)}`, publicUrl.origin).toString();
}

/** Why a certificate is refused, with the status its answer carries. */
export class CertificateRefusedError extends Refusal {
  override name = "CertificateRefusedError";
  constructor(message: string, status: 403 | 404 | 409) {
    super(message, status);
  }
}

/** What a certificate by place states besides who and which event (decision 060). */
export interface AwardFacts {
  /** '1er lugar', '2do lugar', '3er lugar' or 'Participación'. */
  label: string;
  place: number | null;
  category: string;
  team: string;
  /** Competitors of primary or secondary school: the public page names them 'Ana Q.'. */
  minors: boolean;
}

export interface Certificate {
  /** A competition's certificate by place; absent for one of attendance. */
  award?: AwardFacts;
  /** The stored code (12 characters, no dashes). */
  code: string;
  /** The member's full name. */
  nombre: string;
  /** The sessions not cancelled the member attended, of how many, and their hours. */
  attendance: SessionsAttended;
  event: {
    id: string;
    nombreEvento: string;
    startsAt: Date;
    endsAt: Date;
    ubicacionEvento: string;
    ubicacionEspecifica: string | null;
    tipoEvento: string;
    /** The share of sessions (percent) that earns the certificate (decision 044). */
    certificateShare: number;
  };
}

// The name on a certificate: the full name of the profile, or the account's name for a member
// brought over without one. Never the e-mail: the public page shows the name.
const nameOnCertificate = sql<
  string | null
>`coalesce(nullif(trim(${users.nombreCompleto}), ''), nullif(trim(${users.displayName}), ''))`;

export interface SessionsAttended {
  attended: number;
  total: number;
  /** Hours of the sessions attended (their scheduled length), to a tenth. */
  hours: number;
}

/**
 * What a certificate of a course of several sessions states: "Asistió a 3 de 4 sesiones (6
 * horas)". Null for an event of one session, whose certificate has no such line.
 */
export function attendanceLine({ attended, total, hours }: SessionsAttended): string | null {
  if (total <= 1) return null;
  const h = hours.toLocaleString("es", { maximumFractionDigits: 1 });
  return `Asistió a ${attended} de ${total} sesiones (${h} ${hours === 1 ? "hora" : "horas"})`;
}

const attendanceOf = (row: { attended: number; total: number; seconds: number }) => ({
  attended: Number(row.attended),
  total: Number(row.total),
  hours: Math.round(Number(row.seconds) / 360) / 10,
});

const eventColumns = {
  id: events.id,
  nombreEvento: events.nombreEvento,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  ubicacionEvento: events.ubicacionEvento,
  ubicacionEspecifica: events.ubicacionEspecifica,
  tipoEvento: events.tipoEvento,
  certificateShare: events.certificateShare,
};

type Actor = (Pick<User, "id" | "isAdmin"> & { grants?: readonly Grant[] }) | null;

/**
 * The certificate of `userId` for `eventId`, for the member themselves, an admin or the event's
 * organisers. Refused, with
 * the reason, before the event has ended, to someone who did not take part or was not checked in,
 * and to anyone else.
 */
export async function certificateFor(
  db: Db,
  actor: Actor,
  eventId: unknown,
  userId: unknown,
  now: Date = new Date(),
): Promise<Certificate> {
  if (!actor) throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateLoginRequired, 403);
  const own = actor.id === userId;
  if (!own && !may(actor, "event.participants", { eventId: String(eventId) })) {
    throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNotOwn, 403);
  }
  if (!isUuid(eventId)) throw new CertificateRefusedError(KERNEL_MESSAGES.eventNotFound, 404);
  const member = isUuid(userId) ? userId : null;
  const [row] = await db
    .select({
      event: eventColumns,
      participates: member
        ? sql<boolean>`${participations.userId} is not null`
        : sql<boolean>`false`,
      attended: member ? attendedCount : sql<number>`0`,
      seconds: member ? attendedSeconds : sql<number>`0`,
      total: sessionCount,
      share: events.certificateShare,
      code: participations.certificateCode,
      nombre: nameOnCertificate,
    })
    .from(events)
    .leftJoin(
      participations,
      and(
        eq(participations.eventId, events.id),
        // A malformed member id matches nobody, without reaching the database as a uuid.
        member ? eq(participations.userId, member) : sql`false`,
      ),
    )
    .leftJoin(users, eq(users.id, participations.userId))
    .where(eq(events.id, eventId))
    .limit(1);
  if (!row) throw new CertificateRefusedError(KERNEL_MESSAGES.eventNotFound, 404);
  if (!row.participates || row.code === null) {
    throw own
      ? new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNotParticipant, 403)
      : new CertificateRefusedError(ATTENDANCE_MESSAGES.participantNotFound, 404);
  }
  if (!hasEnded(row.event, now)) {
    throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNotEnded, 403);
  }
  if (row.share === null) {
    throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNone, 403);
  }
  const attendance = attendanceOf(row);
  if (attendance.attended === 0) {
    throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNotCheckedIn, 403);
  }
  if (!reachesShare(attendance.attended, attendance.total, row.share)) {
    throw new CertificateRefusedError(
      certificateShareNotReached(attendance.attended, attendance.total, row.share),
      403,
    );
  }
  if (!row.nombre) throw new CertificateRefusedError(ATTENDANCE_MESSAGES.certificateNoName, 409);
  const event = { ...row.event, certificateShare: row.share };
  return { code: row.code, nombre: row.nombre, attendance, event };
}

/**
 * What `/certificados/{code}` confirms: the certificate with that code, if its member attended
 * the event's share of sessions and its event has ended; null for any other code, well-formed or
 * not.
 */
export async function findCertificate(
  db: Db,
  rawCode: unknown,
  now: Date = new Date(),
): Promise<Certificate | null> {
  const code = parseCertificateCode(rawCode);
  if (!code) return null;
  const [row] = await db
    .select({
      event: eventColumns,
      nombre: nameOnCertificate,
      attended: attendedCount,
      seconds: attendedSeconds,
      total: sessionCount,
      share: events.certificateShare,
    })
    .from(participations)
    .innerJoin(events, eq(events.id, participations.eventId))
    .innerJoin(users, eq(users.id, participations.userId))
    .where(
      and(
        eq(participations.certificateCode, code),
        // Ended: its end has come (eventState).
        lte(events.endsAt, now),
      ),
    )
    .limit(1);
  if (!row || !row.nombre || row.share === null) return null;
  const attendance = attendanceOf(row);
  if (!reachesShare(attendance.attended, attendance.total, row.share)) return null;
  return {
    code,
    nombre: row.nombre,
    attendance,
    event: { ...row.event, certificateShare: row.share },
  };
}
