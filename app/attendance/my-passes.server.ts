// 'Mis entradas' (docs/decisions/050-mis-entradas-offline.md): what a member carries to the door.
// Their registrations not over yet, each with its sessions still to come, its place, whether the
// place is confirmed, paid or waiting for a payment, and their pass (the QR and the typed code);
// the waiting lists they are on; and the certificates they earned. Only ever the asking member's
// own rows: the member is the one whose id is given, never one named by the request.
import { and, asc, desc, eq, gt, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, participations, type User } from "~/db/schema.server";
import { eventPlace } from "~/events/event-place";
import { listWaitingEvents } from "~/events/participation.server";
import { competitorEvents } from "./competitors.server";
import { checkInPass } from "./check-in.server";
import type { PassView } from "./check-in";
import { certificateUrl, formatCertificateCode } from "./certificate.server";
import { attendedCount, reachesShare, sessionCount } from "./event-session-attendance.server";

/** How the member's place stands: free or paid, or the step of its payment (decision 048). */
export type PlaceState = "confirmed" | "paid" | "waived" | "pending" | "submitted" | "refused";

export interface MyPass {
  eventId: string;
  nombreEvento: string;
  startsAt: string;
  endsAt: string;
  place: string;
  virtual: boolean;
  /** Its sessions not over yet, cancelled ones marked; empty for an event of one session. */
  sessions: Array<{
    id: string;
    startsAt: string;
    endsAt: string;
    place: string | null;
    cancelled: boolean;
  }>;
  state: PlaceState;
  /** Until when a place not yet paid is held ('pending' and 'refused'). */
  heldUntil: string | null;
  priceCents: number;
  /** The QR (an SVG made here) and the code to say; null for an event that happens only online. */
  pass: PassView | null;
  /** The teams the member competes with at this event (decision 055): their pass is a competitor's. */
  teams: string[];
}

export interface MyCertificate {
  eventId: string;
  nombreEvento: string;
  startsAt: string;
  endsAt: string;
  /** "ABCD-EFGH-JKMN", as printed on the certificate. */
  code: string;
  /** The public page that confirms it. */
  verifyUrl: string;
}

type Member = Pick<User, "id">;

/**
 * The state of the member's place from their latest payment. Without a payment (a free event, or
 * one given a price after the member joined) there is nothing to pay: the place is confirmed.
 */
function placeState(paymentStatus: string | null): PlaceState {
  switch (paymentStatus) {
    case "confirmed":
      return "paid";
    case "waived":
    case "pending":
    case "submitted":
    case "refused":
      return paymentStatus;
    default:
      return "confirmed";
  }
}

/**
 * The member's passes, waiting lists and certificates at `now`. An event is upcoming until it
 * ends (decision 030), so a pass stays through the last session of a course; a deleted event, one
 * the member left and one whose held place expired have no participation and are not listed.
 */
export async function loadMyPasses(
  db: Db,
  member: Member,
  options: { now: Date; secret: string; publicUrl: URL },
) {
  const { now, secret, publicUrl } = options;
  const mine = eq(participations.userId, member.id);
  // A member or coach of an approved team has a pass without registering (decision 055).
  const competing = await competitorEvents(db, member.id, now);
  const competingIds = [...competing.keys()];
  const [upcoming, ended, waiting] = await Promise.all([
    db
      .select({
        id: events.id,
        nombreEvento: events.nombreEvento,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        tipoEvento: events.tipoEvento,
        ubicacionEvento: events.ubicacionEvento,
        ubicacionEspecifica: events.ubicacionEspecifica,
        priceCents: events.priceCents,
        sessions: sql<
          Array<{
            id: string;
            startsAt: string;
            endsAt: string;
            place: string | null;
            cancelledAt: string | null;
          }>
        >`coalesce((
          select json_agg(json_build_object('id', s.id, 'startsAt', s.starts_at,
            'endsAt', s.ends_at, 'place', s.place, 'cancelledAt', s.cancelled_at)
            order by s.starts_at, s.id)
          from event_sessions s where s.event_id = ${events.id}
            and s.ends_at > ${now.toISOString()}::timestamptz), '[]'::json)`,
        sessionsTotal: sessionCount,
        payment: sql<{ status: string; heldUntil: string | null } | null>`(
          select json_build_object('status', py.status, 'heldUntil', py.held_until)
          from payments py
          where py.event_id = ${events.id} and py.user_id = ${member.id}::uuid
            and py.subject_kind = 'registration'
          order by py.created_at desc limit 1)`,
      })
      .from(events)
      .leftJoin(participations, and(eq(participations.eventId, events.id), mine))
      .where(
        and(
          gt(events.endsAt, now),
          competingIds.length > 0
            ? or(isNotNull(participations.userId), inArray(events.id, competingIds))
            : isNotNull(participations.userId),
        ),
      )
      .orderBy(asc(events.startsAt), asc(events.id)),
    db
      .select({
        id: events.id,
        nombreEvento: events.nombreEvento,
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        certificateShare: events.certificateShare,
        certificateCode: participations.certificateCode,
        attended: attendedCount,
        total: sessionCount,
      })
      .from(participations)
      .innerJoin(events, eq(events.id, participations.eventId))
      .where(and(mine, lte(events.endsAt, now)))
      .orderBy(desc(events.endsAt), asc(events.id)),
    listWaitingEvents(db, member.id, now),
  ]);

  const passes: MyPass[] = upcoming.map((e) => {
    const state = placeState(e.payment?.status ?? null);
    const virtual = e.tipoEvento === "Virtual";
    return {
      eventId: e.id,
      nombreEvento: e.nombreEvento,
      startsAt: e.startsAt.toISOString(),
      endsAt: e.endsAt.toISOString(),
      place: eventPlace(e),
      virtual,
      sessions:
        Number(e.sessionsTotal) > 1
          ? e.sessions.map((s) => ({
              id: s.id,
              startsAt: new Date(s.startsAt).toISOString(),
              endsAt: new Date(s.endsAt).toISOString(),
              place: s.place,
              cancelled: s.cancelledAt !== null,
            }))
          : [],
      state,
      heldUntil:
        (state === "pending" || state === "refused") && e.payment?.heldUntil
          ? new Date(e.payment.heldUntil).toISOString()
          : null,
      priceCents: e.priceCents,
      // The same pass as the event page's: the door has one for every participant.
      pass: virtual
        ? null
        : checkInPass(secret, e, member.id, competing.has(e.id) ? null : e.payment?.status),
      teams: competing.get(e.id) ?? [],
    };
  });

  const certificates: MyCertificate[] = ended
    .filter((e) => reachesShare(Number(e.attended), Number(e.total), e.certificateShare))
    .map((e) => ({
      eventId: e.id,
      nombreEvento: e.nombreEvento,
      startsAt: e.startsAt.toISOString(),
      endsAt: e.endsAt.toISOString(),
      code: formatCertificateCode(e.certificateCode),
      verifyUrl: certificateUrl(publicUrl, e.certificateCode),
    }));

  return {
    passes,
    waiting: waiting.map((w) => ({
      eventId: w.id,
      nombreEvento: w.nombreEvento,
      startsAt: w.startsAt.toISOString(),
      position: w.position,
    })),
    certificates,
  };
}
