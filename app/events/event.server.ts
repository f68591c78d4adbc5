// Events (eventos): publishing, editing, galleries — and the rule of an event's state (upcoming,
// ongoing, ended), decided on the server from its start and end instants (decision 030). Every change is refused here unless an admin asks.
import { asc, desc, eq, gt, and, sql } from "drizzle-orm";
import { END_BEFORE_START, type EventInput } from "~/events/schemas";
import { isUuid } from "~/kernel/checks";
import { EVENT_DEFAULT_DURATION_MS } from "~/kernel/limits";
import { zonedToInstant } from "~/kernel/time";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { preparedFor } from "~/db/prepared.server";
import { eventImages, events, eventSessions, type User } from "~/db/schema.server";
import { tableMemory } from "~/db/table-memory.server";
import { queueMail, recipients, type EventBefore } from "~/mail/mail.server";
import { assertMay, type Grant, type Scope } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError } from "./errors";
import { hasEnded } from "./event-state";
import { fillSeats } from "./seats.server";
import { Refusal } from "~/kernel/errors";

export { EventNotFoundError };

/** The event's date and time fall past what the database holds (the year 9999 in UTC). */
export class EventDateOutOfRangeError extends Refusal {
  override name = "EventDateOutOfRangeError";
  constructor(readonly field: "fechaEvento" | "fechaFin" = "fechaEvento") {
    super(
      field === "fechaEvento"
        ? "La fecha del evento debe ser anterior al año 10000."
        : "La fecha de fin debe ser anterior al año 10000.",
      400,
    );
  }
}

/** The end given is not after the start; `field` is the one to correct. */
export class EventEndBeforeStartError extends Refusal {
  override name = "EventEndBeforeStartError";
  constructor(readonly field: "fechaFin" | "horaFin") {
    super(END_BEFORE_START, 400);
  }
}

/** When the event starts, as an instant; refused when it lies past the year 9999 in UTC. */
export function eventStartsAt(fechaEvento: string, horaEvento: string, timeZone: string): Date {
  const startsAt = zonedToInstant(fechaEvento, horaEvento, timeZone);
  if (!(startsAt.getUTCFullYear() <= 9999)) throw new EventDateOutOfRangeError();
  return startsAt;
}

/** The last instant the site stores: the end of the year 9999 in UTC. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * The end an event gets when none is given: its start + EVENT_DEFAULT_HOURS (an event that
 * starts in the last hours of the year 9999 in UTC ends with it).
 */
export function defaultEndsAt(startsAt: Date): Date {
  return new Date(Math.min(startsAt.getTime() + EVENT_DEFAULT_DURATION_MS, LAST_INSTANT));
}

/**
 * When the event ends: `fechaFin` `horaFin` in `timeZone`, or the default when both are blank.
 * Refused when it is not after `startsAt` or lies past the year 9999.
 */
export function eventEndsAt(
  end: { fechaFin: string; horaFin: string },
  startsAt: Date,
  timeZone: string,
): Date {
  if (end.fechaFin === "" && end.horaFin === "") return defaultEndsAt(startsAt);
  const endsAt = zonedToInstant(end.fechaFin, end.horaFin, timeZone);
  if (!(endsAt.getUTCFullYear() <= 9999)) throw new EventDateOutOfRangeError("fechaFin");
  if (endsAt.getTime() <= startsAt.getTime()) {
    const sameDay = endsAt.getTime() > startsAt.getTime() - 24 * 60 * 60 * 1000;
    throw new EventEndBeforeStartError(sameDay ? "horaFin" : "fechaFin");
  }
  return endsAt;
}

type Actor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> & {
      grants?: readonly Grant[];
    })
  | null;

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

/** 'Eventos Publicados' (§2): every event, by fechaEvento (and time) newest first. */
export async function listEventsForAdmin(db: Db, actor: Actor) {
  assertMay(actor, "events.list");
  return db
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
    .orderBy(desc(events.fechaEvento), desc(events.horaEvento), desc(events.createdAt));
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
      // Its organisers (issue 32's roles) by the name they gave, never their e-mail.
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
    organisers,
    seatsLeft,
    sessions,
    isCompetition,
  };
}

function columnsOf(input: EventInput, timeZone: string) {
  const startsAt = eventStartsAt(input.fechaEvento, input.horaEvento, timeZone);
  return {
    nombreEvento: input.nombreEvento,
    ubicacionEvento: input.ubicacionEvento,
    tipoEvento: input.tipoEvento,
    enlacesVirtuales: input.tipoEvento === "Presencial" ? [] : input.enlacesVirtuales,
    fechaEvento: input.fechaEvento,
    horaEvento: input.horaEvento,
    startsAt,
    endsAt: eventEndsAt(input, startsAt, timeZone),
    imagenEnlace: input.imagenEnlace,
    ubicacionEspecifica: input.ubicacionEspecifica || null,
    descripcion: input.descripcion,
    capacity: input.capacity,
    priceCents: input.price,
    holdHours: input.holdHours,
    chatLink: input.enlaceGrupo,
  };
}

/** 'Publicar Nuevo Evento': admins only. */
export async function createEvent(db: Db, actor: Actor, input: EventInput, timeZone: string) {
  const role = assertMay(actor, "event.create");
  const event = await db.transaction(async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        ...columnsOf(input, timeZone),
        publishedBy: actor!.id,
        publishedByName:
          actor!.displayName?.trim() || actor!.nombreCompleto?.trim() || actor!.email,
      })
      .returning();
    // Its first session spans it and has its id (decision 043).
    await tx.insert(eventSessions).values({
      id: event!.id,
      eventId: event!.id,
      startsAt: event!.startsAt,
      endsAt: event!.endsAt,
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.create",
      itemKind: "event",
      itemId: event!.id,
      summary: `Publicó el evento «${event!.nombreEvento}»`,
    });
    return event;
  });
  // This process's own memory at once; the others' when the NOTIFY reaches them.
  eventEnds.forget(db);
  return event!;
}

/** 'Editar': the same fields and rules as publishing; admins and the event's organisers. */
export async function updateEvent(
  db: Db,
  actor: Actor,
  id: unknown,
  input: EventInput,
  timeZone: string,
) {
  const role = assertMay(actor, "event.edit", { eventId: typeof id === "string" ? id : "" });
  if (!isUuid(id)) throw new EventNotFoundError();
  const event = await db.transaction(async (tx) => {
    // Locked first, so joins wait; a larger (or no) capacity seats those waiting.
    const [before] = await tx
      .select({
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        ubicacionEvento: events.ubicacionEvento,
        ubicacionEspecifica: events.ubicacionEspecifica,
        tipoEvento: events.tipoEvento,
        enlacesVirtuales: events.enlacesVirtuales,
      })
      .from(events)
      .where(eq(events.id, id))
      .for("update");
    if (!before) throw new EventNotFoundError();
    const sessions = await tx
      .select({ id: eventSessions.id })
      .from(eventSessions)
      .where(eq(eventSessions.eventId, id))
      .limit(2);
    const columns = columnsOf(input, timeZone);
    // With several sessions, they decide the dates (the form shows them, read-only); with one,
    // the form's start and end move that session too (decision 043).
    const [event] = await tx
      .update(events)
      .set({ ...(sessions.length > 1 ? withoutDates(columns) : columns), updatedAt: new Date() })
      .where(eq(events.id, id))
      .returning();
    if (!event) throw new EventNotFoundError();
    if (sessions.length === 1)
      await tx
        .update(eventSessions)
        .set({ startsAt: event.startsAt, endsAt: event.endsAt })
        .where(eq(eventSessions.id, sessions[0]!.id));
    else if (sessions.length === 0)
      await tx
        .insert(eventSessions)
        .values({ id, eventId: id, startsAt: event.startsAt, endsAt: event.endsAt });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.edit",
      itemKind: "event",
      itemId: id,
      summary: `Editó el evento «${event.nombreEvento}»`,
    });
    if (!hasEnded(event)) await fillSeats(tx, event);
    if (!hasEnded(before) && movedOrRelocated(before, event)) {
      const who = sql`${recipients.participants(id)} union ${recipients.waiting(id)}`;
      await queueMail(tx, "changed", who, {
        eventId: id,
        data: {
          before: {
            ...before,
            startsAt: before.startsAt.toISOString(),
            endsAt: before.endsAt.toISOString(),
          },
        },
      });
    }
    return event;
  });
  eventEnds.forget(db);
  return event;
}

/** An event's columns but its dates: what the form changes of an event with several sessions. */
function withoutDates<
  T extends { fechaEvento: string; horaEvento: string; startsAt: Date; endsAt: Date },
>(columns: T) {
  const {
    fechaEvento: _date,
    horaEvento: _time,
    startsAt: _start,
    endsAt: _end,
    ...rest
  } = columns;
  return rest;
}

/** Whether the date, time or place changed: what participants are told of. */
function movedOrRelocated(before: EventBefore, after: EventBefore): boolean {
  return (
    before.startsAt.getTime() !== after.startsAt.getTime() ||
    before.endsAt.getTime() !== after.endsAt.getTime() ||
    before.ubicacionEvento !== after.ubicacionEvento ||
    (before.ubicacionEspecifica ?? "") !== (after.ubicacionEspecifica ?? "") ||
    before.tipoEvento !== after.tipoEvento ||
    before.enlacesVirtuales.join("\n") !== after.enlacesVirtuales.join("\n")
  );
}

/**
 * 'Eliminar': the event, its participations and its gallery go together (foreign keys cascade).
 * Those who took part or waited for an upcoming event are told, in the same transaction.
 */
export async function deleteEvent(db: Db, actor: Actor, id: unknown): Promise<void> {
  const role = assertMay(actor, "event.delete");
  if (!isUuid(id)) throw new EventNotFoundError();
  await db.transaction(async (tx) => {
    const [event] = await tx
      .select({
        startsAt: events.startsAt,
        endsAt: events.endsAt,
        nombreEvento: events.nombreEvento,
      })
      .from(events)
      .where(eq(events.id, id))
      .for("update");
    if (!event) throw new EventNotFoundError();
    if (!hasEnded(event)) {
      const who = sql`${recipients.participants(id)} union ${recipients.waiting(id)}`;
      await queueMail(tx, "deleted", who, { eventId: id });
    }
    await tx.delete(events).where(eq(events.id, id));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.delete",
      itemKind: "event",
      itemId: id,
      summary: `Eliminó el evento «${event.nombreEvento}»`,
    });
  });
  eventEnds.forget(db);
}

/** 'Agregar Imagen' to an event's gallery: one or more, at the end, in order; admins and organisers. */
export async function addGalleryImage(
  db: Db,
  actor: Actor,
  eventId: unknown,
  url: string | readonly string[],
) {
  const role = assertMay(actor, "event.gallery", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const urls = typeof url === "string" ? [url] : url;
  return db.transaction(async (tx) => {
    // Locking the event row keeps positions in order when two admins add at once.
    const [event] = await tx
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new EventNotFoundError();
    const [last] = await tx
      .select({ max: sql<number>`coalesce(max(${eventImages.position}), -1)::int` })
      .from(eventImages)
      .where(eq(eventImages.eventId, eventId));
    const first = (last?.max ?? -1) + 1;
    const images = await tx
      .insert(eventImages)
      .values(urls.map((u, i) => ({ eventId, url: u, position: first + i })))
      .returning();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.gallery.add",
      itemKind: "event",
      itemId: eventId,
      summary: `Agregó ${urls.length === 1 ? "una imagen" : `${urls.length} imágenes`} a la galería`,
    });
    return images[0]!;
  });
}

/** 'Eliminar' one gallery image; admins and the event's organisers. */
export async function removeGalleryImage(
  db: Db,
  actor: Actor,
  eventId: unknown,
  imageId: unknown,
): Promise<void> {
  const role = assertMay(actor, "event.gallery", { eventId: String(eventId) });
  if (!isUuid(eventId) || !isUuid(imageId)) throw new EventNotFoundError();
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(eventImages)
      .where(and(eq(eventImages.id, imageId), eq(eventImages.eventId, eventId)))
      .returning({ id: eventImages.id });
    if (deleted.length === 0) throw new EventNotFoundError();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.gallery.remove",
      itemKind: "event",
      itemId: eventId,
      summary: "Quitó una imagen de la galería",
    });
  });
}

/**
 * The hours around an event in which its door staff may check people in (3 before the start and
 * 6 after the end unless changed); admins and the event's organisers, 0 to 72 each.
 */
export async function setDoorWindow(
  db: Db,
  actor: Actor,
  eventId: unknown,
  hoursBefore: number,
  hoursAfter: number,
): Promise<void> {
  const role = assertMay(actor, "event.door.window", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  for (const h of [hoursBefore, hoursAfter]) {
    if (!Number.isInteger(h) || h < 0 || h > DOOR_HOURS_MAX) throw new DoorWindowError();
  }
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(events)
      .set({ doorHoursBefore: hoursBefore, doorHoursAfter: hoursAfter })
      .where(eq(events.id, eventId))
      .returning({ nombreEvento: events.nombreEvento });
    if (updated.length === 0) throw new EventNotFoundError();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.door.window",
      itemKind: "event",
      itemId: eventId,
      summary: `Registro de entrada de «${updated[0]!.nombreEvento}»: desde ${hoursBefore} h antes hasta ${hoursAfter} h después`,
    });
  });
}

export const DOOR_HOURS_MAX = 72;

export class CertificateShareError extends Refusal {
  override name = "CertificateShareError";
  constructor(message = "El porcentaje de sesiones debe ser un número entero entre 1 y 100.") {
    super(message, 400);
  }
}

/**
 * Whether the event gives a certificate and from which share of its sessions (an integer percent,
 * 1–100) a participant earns it (decisions 044 and 045); admins and the event's organisers, as
 * any edit of it. `give` is 'si' (the default, when the form does not say) or 'no', for a club
 * that gives none. Certificates, once the event has ended, were given: they cannot be taken back.
 */
export async function setCertificateShare(
  db: Db,
  actor: Actor,
  eventId: unknown,
  input: { give: unknown; share: unknown },
  now: Date = new Date(),
): Promise<void> {
  const role = assertMay(actor, "event.edit", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const give = input.give ?? "si";
  if (give !== "si" && give !== "no") {
    throw new CertificateShareError("Elige si el evento entrega certificado de asistencia.");
  }
  let share: number | null = null;
  if (give === "si") {
    const text = typeof input.share === "string" ? input.share.trim() : "";
    share = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(share) || share < 1 || share > 100) throw new CertificateShareError();
  }
  await db.transaction(async (tx) => {
    const [event] = await tx
      .select({ nombreEvento: events.nombreEvento, endsAt: events.endsAt })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new EventNotFoundError();
    if (share === null && event.endsAt <= now) {
      throw new CertificateShareError(
        "El evento ya terminó y sus certificados ya se entregaron: no se pueden retirar.",
      );
    }
    await tx.update(events).set({ certificateShare: share }).where(eq(events.id, eventId));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.certificateShare",
      itemKind: "event",
      itemId: eventId,
      summary:
        share === null
          ? `Certificado de «${event.nombreEvento}»: no entrega certificado`
          : `Certificado de «${event.nombreEvento}»: desde el ${share} % de las sesiones`,
    });
  });
}

export class DoorWindowError extends Refusal {
  override name = "DoorWindowError";
  constructor() {
    super(`Las horas deben ser un número entero entre 0 y ${DOOR_HOURS_MAX}.`, 400);
  }
}
