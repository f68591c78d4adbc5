// Calendar feeds: every public event (/eventos.ics), and a member's own events by a secret link
// (/calendario/:token/eventos.ics). Only the token's SHA-256 is stored, so the link is shown once,
// when it is made; renewing it replaces the hash and the old link answers 404 at once.
import { createHash, randomBytes } from "node:crypto";
import { asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, participations, users, type User } from "~/db/schema.server";
import type { IcsEvent, IcsSession } from "~/kernel/ics.server";
import { NotSignedInError } from "~/members/errors";

/** How far back the public feed goes; everything upcoming is in it. */
export const PUBLIC_FEED_PAST_DAYS = 365;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

const icsColumns = {
  id: events.id,
  nombreEvento: events.nombreEvento,
  descripcion: events.descripcion,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  ubicacionEvento: events.ubicacionEvento,
  ubicacionEspecifica: events.ubicacionEspecifica,
  tipoEvento: events.tipoEvento,
  enlacesVirtuales: events.enlacesVirtuales,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
  // Its sessions that are not cancelled: one VEVENT each (decision 043).
  sessions: sql<IcsSession[]>`coalesce((select json_agg(json_build_object('id', cs.id,
    'startsAt', cs.starts_at, 'endsAt', cs.ends_at, 'place', cs.place, 'link', cs.link)
    order by cs.starts_at, cs.id)
    from event_sessions cs where cs.event_id = "events"."id" and cs.cancelled_at is null), '[]'::json)`,
};

/** The sessions as json_agg wrote them: their instants as text. */
function withSessions(rows: IcsEvent[]): IcsEvent[] {
  return rows.map((row) => ({
    ...row,
    sessions: (row.sessions ?? []).map((s) => ({
      ...s,
      startsAt: new Date(s.startsAt),
      endsAt: new Date(s.endsAt),
    })),
  }));
}

/** Every event from PUBLIC_FEED_PAST_DAYS ago on, soonest first. */
export async function listPublicCalendarEvents(
  db: Db,
  now: Date = new Date(),
): Promise<IcsEvent[]> {
  const since = new Date(now.getTime() - PUBLIC_FEED_PAST_DAYS * 24 * 60 * 60 * 1000);
  return withSessions(
    await db
      .select(icsColumns)
      .from(events)
      .where(gte(events.startsAt, since))
      .orderBy(asc(events.startsAt), asc(events.id)),
  );
}

/**
 * Makes (or renews) the signed-in member's private calendar link and returns its secret, which
 * is stored nowhere but in the link: the database keeps its hash.
 */
export async function renewCalendarToken(db: Db, actor: Pick<User, "id"> | null): Promise<string> {
  if (!actor) throw new NotSignedInError();
  const token = randomBytes(32).toString("base64url");
  const updated = await db
    .update(users)
    .set({ calendarTokenHash: hashToken(token) })
    .where(eq(users.id, actor.id))
    .returning({ id: users.id });
  if (updated.length === 0) throw new NotSignedInError();
  return token;
}

/** The events of the member whose calendar link carries `token`; null for any other token. */
export async function privateCalendarEvents(db: Db, token: unknown): Promise<IcsEvent[] | null> {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) return null;
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.calendarTokenHash, hashToken(token)))
    .limit(1);
  if (!owner) return null;
  return withSessions(
    await db
      .select(icsColumns)
      .from(participations)
      .innerJoin(events, eq(events.id, participations.eventId))
      .where(eq(participations.userId, owner.id))
      .orderBy(asc(events.startsAt), asc(events.id)),
  );
}
