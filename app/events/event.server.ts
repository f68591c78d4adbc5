// Events (eventos), as the pages read them: one event's scope for the capability table, the cards
// of the lists, an event's page for a visitor or a member, the admin's list. The rule of an event's
// state (upcoming, ongoing, ended) is decided on the server from its start and end instants
// (decision 030, ./event-state.ts). The changes are in ./event-commands.server.ts.
import { asc, desc, eq, gt, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { preparedFor } from "~/db/prepared.server";
import { events, type User } from "~/db/schema.server";
import { tableMemory } from "~/db/table-memory.server";
import { assertMay, type Grant, type Scope } from "~/kernel/permissions";
import { boundedSearch, likePattern } from "~/kernel/search";
import { EventNotFoundError } from "~/kernel/errors";

/** Who acts on an event, as every events' function receives them. */
export type EventActor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> & {
      grants?: readonly Grant[];
    })
  | null;

export { EventNotFoundError };

/**
 * What the capability table needs of one event: its id, and its dates and door window (door staff
 * act only within it). Null when the id is malformed or unknown.
 */
export async function eventScope(
  db: Db,
  id: unknown,
  now: Date = new Date(),
): Promise<Scope | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      doorHoursBefore: events.doorHoursBefore,
      doorHoursAfter: events.doorHoursAfter,
      certificateShare: events.certificateShare,
    })
    .from(events)
    .where(eq(events.id, id))
    .limit(1);
  return row ? { eventId: id, window: row, now } : null;
}

export { eventState, hasEnded, type EventState } from "./event-state";

/** How many take part in the event of the row `alias` (a card's 'van N'), as SQL text. */
const goingOf = (alias: string) =>
  `(select count(*)::int from participations gp where gp.event_id = ${alias}.id and gp.seat)`;

/** How many sessions, not cancelled, the event of the row `alias` has (a card's '4 sesiones'). */
const sessionsOf = (alias: string) =>
  `(select count(*)::int from event_sessions gs where gs.event_id = ${alias}.id
    and gs.cancelled_at is null)`;

/** What an event card shows (home page, /eventos): with how many take part, and its capacity. */
const cardColumns = {
  id: events.id,
  nombreEvento: events.nombreEvento,
  ubicacionEvento: events.ubicacionEvento,
  tipoEvento: events.tipoEvento,
  imagenEnlace: events.imagenEnlace,
  startsAt: events.startsAt,
  endsAt: events.endsAt,
  capacity: events.capacity,
  going: sql<number>`${sql.raw(goingOf('"events"'))}`,
  sessions: sql<number>`${sql.raw(sessionsOf('"events"'))}`,
};

const upcomingEvents = preparedFor((db) =>
  db
    .select(cardColumns)
    .from(events)
    .where(gt(events.endsAt, sql`${sql.placeholder("now")}::timestamptz`))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare("ayllu_upcoming_events"),
);

/** The events that have not ended yet (upcoming and ongoing), soonest first (home page). */
export async function listUpcomingEvents(
  db: Db,
  limit: number,
  now: Date = new Date(),
  offset = 0,
) {
  return upcomingEvents(db).execute({ now: now.toISOString(), limit, offset });
}

/** The events not over at `now`, soonest first: the choices of a form that names one. */
export async function listEventsNotOver(db: Db, now: Date, limit = 200) {
  return db
    .select({ id: events.id, nombreEvento: events.nombreEvento, startsAt: events.startsAt })
    .from(events)
    .where(gt(events.endsAt, now))
    .orderBy(asc(events.startsAt))
    .limit(limit);
}

/** Whether an event with this id is there (an id that is not one is not). */
export async function eventExists(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [found] = await db.select({ id: events.id }).from(events).where(eq(events.id, id));
  return found !== undefined;
}

type EventCard = Awaited<ReturnType<typeof listUpcomingEvents>>[number];

/** A card as json_build_object writes it; its time comes back as text. */
const cardJson = (alias: string) =>
  sql.raw(`json_build_object('id', ${alias}.id, 'nombreEvento', ${alias}.nombre_evento,
    'ubicacionEvento', ${alias}.ubicacion_evento, 'tipoEvento', ${alias}.tipo_evento,
    'imagenEnlace', ${alias}.imagen_enlace, 'startsAt', ${alias}.starts_at,
    'endsAt', ${alias}.ends_at, 'capacity', ${alias}.capacity,
    'going', ${goingOf(alias)}, 'sessions', ${sessionsOf(alias)})`);

/**
 * When every event ends (milliseconds since the epoch), in order. /eventos counts its upcoming
 * and past events from these rather than with two count(*) that grow with the table; a process
 * that watches the table keeps them in memory until an event is written.
 */
const eventEnds = tableMemory(["events"], async (db) => {
  const [row] = rowsOf<{ ends: number[] }>(
    await db.execute(sql`select coalesce(
      array_agg(extract(epoch from ${events.endsAt}) * 1000 order by ${events.endsAt}),
      '{}')::float8[] as ends from ${events}`),
  );
  return Float64Array.from(row!.ends);
});

export const watchEventEnds = eventEnds.watch;

/** How many of the sorted `ends` are at or before `at`: the events that have ended. */
function countUntil(ends: Float64Array, at: number): number {
  let low = 0;
  let high = ends.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ends[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

type CardRow = Omit<EventCard, "startsAt" | "endsAt"> & { startsAt: string; endsAt: string };

const eventsPage = preparedFor((db) =>
  db
    .select({
      upcoming: sql<
        CardRow[]
      >`coalesce((select json_agg(${cardJson("u")} order by u.starts_at, u.id) from (
        select * from ${events} where ${events.endsAt} > ${sql.placeholder("at")}::timestamptz
        order by ${events.startsAt}, ${events.id}
        limit ${sql.placeholder("pageSize")} offset ${sql.placeholder("upcomingOffset")}
      ) u), '[]'::json)`,
      past: sql<
        CardRow[]
      >`coalesce((select json_agg(${cardJson("p")} order by p.starts_at desc, p.id) from (
        select * from ${events} where ${events.endsAt} <= ${sql.placeholder("at")}::timestamptz
        order by ${events.startsAt} desc, ${events.id}
        limit ${sql.placeholder("pageSize")} offset ${sql.placeholder("pastOffset")}
      ) p), '[]'::json)`,
    })
    // Both lists are subqueries; a select needs a FROM, and only a select can be prepared.
    .from(sql`(select 1) as one`)
    .prepare("ayllu_events_page"),
);

/**
 * /eventos: a page of upcoming events — those not ended, ongoing ones too — (soonest first) and a
 * page of past events (most recent first) in one query, and how many of each there are.
 */
export async function listEventsPage(
  db: Db,
  options: { pageSize: number; upcomingOffset: number; pastOffset: number },
  now: Date = new Date(),
): Promise<{ upcoming: EventCard[]; upcomingTotal: number; past: EventCard[]; pastTotal: number }> {
  const [[row], ends] = await Promise.all([
    eventsPage(db).execute({
      at: now.toISOString(),
      pageSize: options.pageSize,
      upcomingOffset: options.upcomingOffset,
      pastOffset: options.pastOffset,
    }),
    eventEnds.load(db),
  ]);
  const pastTotal = countUntil(ends, now.getTime());
  const card = (e: CardRow): EventCard => ({
    ...e,
    startsAt: new Date(e.startsAt),
    endsAt: new Date(e.endsAt),
  });
  return {
    upcoming: row!.upcoming.map(card),
    upcomingTotal: ends.length - pastTotal,
    past: row!.past.map(card),
    pastTotal,
  };
}

/** How many events a page of 'Eventos Publicados' shows. */
export const ADMIN_EVENTS_PAGE_SIZE = 50;

/**
 * 'Eventos Publicados' (§2): the events whose title holds `search`, by fechaEvento (and time)
 * newest first, one page at a time with how many there are, so that the panel costs the same
 * with a hundred events or thousands. A page past the last gives the last.
 */
export async function listEventsForAdmin(
  db: Db,
  actor: EventActor,
  options: { search?: string; page?: number } = {},
) {
  assertMay(actor, "events.list");
  const search = boundedSearch(options.search);
  // No title holds a control character (forms refuse them, decision 063; PostgreSQL refuses a
  // NUL): such a search matches nothing, without asking the database.
  if (/\p{Cc}/u.test(search))
    return {
      events: [],
      total: 0,
      page: 1,
      pageCount: 1,
      search: search.replace(/\p{Cc}/gu, "\uFFFD"),
    };
  const where = search ? sql`lower(${events.nombreEvento}) like ${likePattern(search)}` : undefined;
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(where);
  const total = count?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_EVENTS_PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const rows = await db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      ubicacionEvento: events.ubicacionEvento,
      tipoEvento: events.tipoEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      capacity: events.capacity,
      // How many take part, for the row's 'N inscritos' and the seats left.
      going: sql<number>`(select count(*)::int from participations pa
        where pa.event_id = "events"."id" and pa.seat)`,
    })
    .from(events)
    .where(where)
    .orderBy(
      desc(events.fechaEvento),
      desc(events.horaEvento),
      desc(events.createdAt),
      desc(events.id),
    )
    .limit(ADMIN_EVENTS_PAGE_SIZE)
    .offset((page - 1) * ADMIN_EVENTS_PAGE_SIZE);
  return { events: rows, total, page, pageCount, search };
}

/**
 * The events a role may be given for in a member's details: those not yet ended, soonest first
 * (at most `limit`); an ended event's staff are given on its own page.
 */
export async function listEventChoices(db: Db, actor: EventActor, now: Date, limit = 200) {
  assertMay(actor, "events.list");
  return db
    .select({ id: events.id, nombreEvento: events.nombreEvento })
    .from(events)
    .where(gt(events.endsAt, now))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(limit);
}

/** One event with its gallery, or null for an unknown or malformed id. */
export async function getEvent(db: Db, id: unknown) {
  return getEventForViewer(db, id, null);
}

/** An event page's one query, for a signed-in viewer (their place in it) or for a visitor. */
function eventPageQuery(db: Db, forMember: boolean) {
  const viewer = sql.placeholder("viewerId");
  return db
    .select({
      event: events,
      // Spelt out with aliases: Drizzle writes a one-table query's columns unqualified, and
      // inside these subqueries "id" would name the image's or participation's own column.
      gallery: sql<Array<{ id: string; url: string }>>`coalesce((
        select json_agg(json_build_object('id', gi.id, 'url', gi.url) order by gi.position, gi.created_at)
        from event_images gi where gi.event_id = "events"."id"), '[]'::json)`,
      participating: forMember
        ? sql<boolean>`exists (select 1 from participations pa
            where pa.event_id = "events"."id" and pa.user_id = ${viewer}::uuid and pa.seat)`
        : sql<boolean>`false`,
      // Whether the viewer was checked in at the door (their certificate, once the event ends).
      attended: forMember
        ? sql<boolean>`exists (select 1 from participations pc
            where pc.event_id = "events"."id" and pc.user_id = ${viewer}::uuid
              and pc.checked_in_at is not null)`
        : sql<boolean>`false`,
      // How many of its sessions not cancelled the viewer attended (decision 044).
      sessionsAttended: forMember
        ? sql<number>`(select count(*)::int from session_attendance sa
            join event_sessions ss on ss.id = sa.session_id
            where sa.event_id = "events"."id" and sa.user_id = ${viewer}::uuid
              and ss.cancelled_at is null)`
        : sql<number>`0`,
      // Its sessions, cancelled ones too, in order (decision 043).
      sessions: sql<
        Array<{
          id: string;
          startsAt: string;
          endsAt: string;
          place: string | null;
          link: string | null;
          cancelledAt: string | null;
        }>
      >`coalesce((
        select json_agg(json_build_object('id', es.id, 'startsAt', es.starts_at,
          'endsAt', es.ends_at, 'place', es.place, 'link', es.link,
          'cancelledAt', es.cancelled_at) order by es.starts_at, es.id)
        from event_sessions es where es.event_id = "events"."id"), '[]'::json)`,
      // How many take part: 'van N', and the seats left of an event with a capacity.
      going: sql<number>`(select count(*)::int from participations pt
        where pt.event_id = "events"."id" and pt.seat)`,
      // Who published it, by the name on their profile now; the name kept at publishing (their
      // sign-in's on older events) only once the account is gone.
      publisherName: sql<string>`coalesce((
        select coalesce(nullif(btrim(pu.nombre_completo), ''), nullif(btrim(pu.display_name), ''))
        from users pu where pu.id = "events"."published_by"
      ), "events"."published_by_name")`,
      // Its organisers (their role grants, decision 038) by the name they gave, never their e-mail.
      organisers: sql<string[]>`coalesce((
        select json_agg(coalesce(ou.nombre_completo, ou.display_name)
          order by lower(coalesce(ou.nombre_completo, ou.display_name)))
        from role_grants og join users ou on ou.id = og.user_id
        where og.event_id = "events"."id" and og.kind = 'organiser'
          and coalesce(ou.nombre_completo, ou.display_name) is not null
      ), '[]'::json)`,
      // The viewer's payment for their place at a paid event (decision 048): its state, or null.
      paymentStatus: forMember
        ? sql<string | null>`(select py.status from payments py
            where py.event_id = "events"."id" and py.user_id = ${viewer}::uuid
              and py.subject_kind = 'registration'
            order by py.created_at desc limit 1)`
        : sql<string | null>`null`,
      // The viewer's place on the waiting list (1 = next), or null when not on it.
      waiting: forMember
        ? sql<number | null>`(select case when count(*) = 0 then null else count(*)::int end
            from event_waitlist wa, event_waitlist me
            where me.event_id = "events"."id" and me.user_id = ${viewer}::uuid
              and wa.event_id = me.event_id
              and (wa.created_at, wa.user_id) <= (me.created_at, me.user_id))`
        : sql<number | null>`null`,
      // Whether it is a competition (decision 051): only then does its page read its categories.
      isCompetition: sql<boolean>`exists (select 1 from competition_categories cc
        where cc.event_id = "events"."id")`,
    })
    .from(events)
    .where(eq(events.id, sql`${sql.placeholder("id")}::uuid`))
    .limit(1)
    .prepare(forMember ? "ayllu_event_page_member" : "ayllu_event_page_visitor");
}

const eventPageForMember = preparedFor((db) => eventPageQuery(db, true));
const eventPageForVisitor = preparedFor((db) => eventPageQuery(db, false));

/**
 * The event page in one query: the event, its gallery, how many take part and the seats left (null
 * without a capacity), its organisers' names,
 * and whether `viewerId` (the signed-in member, or null) takes part in it (and was checked in) or
 * waits for a seat.
 */
export async function getEventForViewer(db: Db, id: unknown, viewerId: string | null) {
  if (!isUuid(id)) return null;
  const [row] = viewerId
    ? await eventPageForMember(db).execute({ id, viewerId })
    : await eventPageForVisitor(db).execute({ id });
  if (!row) return null;
  const {
    event,
    gallery,
    participating,
    attended,
    sessionsAttended,
    going,
    publisherName,
    organisers,
    waiting,
    paymentStatus,
    isCompetition,
  } = row;
  const sessions = row.sessions.map((s) => ({
    ...s,
    startsAt: new Date(s.startsAt),
    endsAt: new Date(s.endsAt),
    cancelledAt: s.cancelledAt ? new Date(s.cancelledAt) : null,
  }));
  const seatsLeft = event.capacity === null ? null : Math.max(0, event.capacity - going);
  return {
    ...event,
    horaEvento: event.horaEvento.slice(0, 5),
    gallery,
    participating,
    attended,
    sessionsAttended: Number(sessionsAttended),
    waiting,
    paymentStatus,
    going,
    publisherName,
    organisers,
    seatsLeft,
    sessions,
    isCompetition,
  };
}

/** Forgets the events' ends kept in memory, after a change of an event's dates (or its removal). */
export function forgetEventEnds(db: Db): void {
  eventEnds.forget(db);
}
