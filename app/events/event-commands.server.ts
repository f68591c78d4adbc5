// Publishing, editing and deleting an event (§6): refused here unless the capability table allows
// it; an event's dates are read and checked here too. Those who take part are told by mail of a
// change of date or place and of a cancellation.
import { forgetEventEnds, type EventActor } from "./event.server";
import { eq, sql } from "drizzle-orm";
import { END_BEFORE_START, type EventInput } from "~/events/schemas";
import { isUuid } from "~/kernel/checks";
import { EVENT_DEFAULT_DURATION_MS } from "~/kernel/limits";
import { zonedToInstant } from "~/kernel/time";
import type { Db } from "~/db/client.server";
import { events, eventSessions } from "~/db/schema.server";
import { queueMail, recipients, type EventBefore } from "~/mail/mail.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { hasEnded } from "./event-state";
import { fillSeats } from "./seats.server";
import { EventNotFoundError, Refusal } from "~/kernel/errors";

/** The event's date and time fall past what the database holds (the year 9999 in UTC). */
export class EventDateOutOfRangeError extends Refusal {
  override name = "EventDateOutOfRangeError";
  constructor(field: "fechaEvento" | "fechaFin" = "fechaEvento") {
    super(
      field === "fechaEvento"
        ? "La fecha del evento debe ser anterior al año 10000."
        : "La fecha de fin debe ser anterior al año 10000.",
      400,
      { field },
    );
  }
}

/** The end given is not after the start; `field` is the one to correct. */
export class EventEndBeforeStartError extends Refusal {
  override name = "EventEndBeforeStartError";
  constructor(field: "fechaFin" | "horaFin") {
    super(END_BEFORE_START, 400, { field });
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
export async function createEvent(db: Db, actor: EventActor, input: EventInput, timeZone: string) {
  const role = assertMay(actor, "event.create");
  const event = await db.transaction(async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        ...columnsOf(input, timeZone),
        publishedBy: actor!.id,
        publishedByName:
          actor!.nombreCompleto?.trim() || actor!.displayName?.trim() || actor!.email,
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
  forgetEventEnds(db);
  return event!;
}

/** 'Editar': the same fields and rules as publishing; admins and the event's organisers. */
export async function updateEvent(
  db: Db,
  actor: EventActor,
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
  forgetEventEnds(db);
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
export async function deleteEvent(db: Db, actor: EventActor, id: unknown): Promise<void> {
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
  forgetEventEnds(db);
}
