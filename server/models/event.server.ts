// Events (eventos): publishing, editing, galleries — and the rule of when an event has ended,
// decided on the server in SITE_TIMEZONE. Every change is refused here unless an admin asks.
import { asc, desc, eq, gt, lte, and, sql } from "drizzle-orm";
import { isUuid, type EventInput } from "~/lib/schemas";
import { zonedToInstant } from "~/lib/time";
import type { Db } from "../db/client.server";
import { eventImages, events, type User } from "../db/schema.server";
import { assertAdmin } from "./permissions.server";
import { fillSeats } from "./seats.server";

export class EventNotFoundError extends Error {
  override name = "EventNotFoundError";
}

/** The event's date and time fall past what the database holds (the year 9999 in UTC). */
export class EventDateOutOfRangeError extends Error {
  override name = "EventDateOutOfRangeError";
  readonly field = "fechaEvento";
  constructor() {
    super("La fecha del evento debe ser anterior al año 10000.");
  }
}

/** When the event starts, as an instant; refused when it lies past the year 9999 in UTC. */
export function eventStartsAt(fechaEvento: string, horaEvento: string, timeZone: string): Date {
  const startsAt = zonedToInstant(fechaEvento, horaEvento, timeZone);
  if (!(startsAt.getUTCFullYear() <= 9999)) throw new EventDateOutOfRangeError();
  return startsAt;
}

type Actor = Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> | null;

/** An event has ended when now is after its date and time in the site's time zone (§4, §9). */
export function hasEnded(event: { startsAt: Date }, now: Date = new Date()): boolean {
  return now.getTime() > event.startsAt.getTime();
}

/** What an event card shows (home page, /eventos). */
const cardColumns = {
  id: events.id,
  nombreEvento: events.nombreEvento,
  ubicacionEvento: events.ubicacionEvento,
  tipoEvento: events.tipoEvento,
  imagenEnlace: events.imagenEnlace,
  startsAt: events.startsAt,
};

/** The next events that have not started yet, soonest first (home page, /eventos). */
export async function listUpcomingEvents(
  db: Db,
  limit: number,
  now: Date = new Date(),
  offset = 0,
) {
  return db
    .select(cardColumns)
    .from(events)
    .where(gt(events.startsAt, now))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(limit)
    .offset(offset);
}

export async function countUpcomingEvents(db: Db, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(gt(events.startsAt, now));
  return row?.n ?? 0;
}

/** Past events, the most recent first, a page at a time (/eventos). */
export async function listPastEvents(
  db: Db,
  options: { limit: number; offset: number },
  now: Date = new Date(),
) {
  return db
    .select(cardColumns)
    .from(events)
    .where(lte(events.startsAt, now))
    .orderBy(desc(events.startsAt), asc(events.id))
    .limit(options.limit)
    .offset(options.offset);
}

export async function countPastEvents(db: Db, now: Date = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(lte(events.startsAt, now));
  return row?.n ?? 0;
}

/** 'Eventos Publicados' (§2): every event, by fechaEvento (and time) newest first. */
export async function listEventsForAdmin(db: Db, actor: Actor) {
  assertAdmin(actor);
  return db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      ubicacionEvento: events.ubicacionEvento,
      tipoEvento: events.tipoEvento,
      startsAt: events.startsAt,
    })
    .from(events)
    .orderBy(desc(events.fechaEvento), desc(events.horaEvento), desc(events.createdAt));
}

/** One event with its gallery, or null for an unknown or malformed id. */
export async function getEvent(db: Db, id: unknown) {
  if (!isUuid(id)) return null;
  const [event] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  if (!event) return null;
  const gallery = await db
    .select({ id: eventImages.id, url: eventImages.url })
    .from(eventImages)
    .where(eq(eventImages.eventId, id))
    .orderBy(asc(eventImages.position), asc(eventImages.createdAt));
  return { ...event, horaEvento: event.horaEvento.slice(0, 5), gallery };
}

export type EventWithGallery = NonNullable<Awaited<ReturnType<typeof getEvent>>>;

function columnsOf(input: EventInput, timeZone: string) {
  return {
    nombreEvento: input.nombreEvento,
    ubicacionEvento: input.ubicacionEvento,
    tipoEvento: input.tipoEvento,
    enlacesVirtuales: input.tipoEvento === "Presencial" ? [] : input.enlacesVirtuales,
    fechaEvento: input.fechaEvento,
    horaEvento: input.horaEvento,
    startsAt: eventStartsAt(input.fechaEvento, input.horaEvento, timeZone),
    imagenEnlace: input.imagenEnlace,
    ubicacionEspecifica: input.ubicacionEspecifica || null,
    descripcion: input.descripcion,
    capacity: input.capacity,
  };
}

/** 'Publicar Nuevo Evento': admins only. */
export async function createEvent(db: Db, actor: Actor, input: EventInput, timeZone: string) {
  assertAdmin(actor);
  const [event] = await db
    .insert(events)
    .values({
      ...columnsOf(input, timeZone),
      publishedBy: actor!.id,
      publishedByName: actor!.displayName?.trim() || actor!.nombreCompleto?.trim() || actor!.email,
    })
    .returning();
  return event!;
}

/** 'Editar': the same fields and rules as publishing; admins only. */
export async function updateEvent(
  db: Db,
  actor: Actor,
  id: unknown,
  input: EventInput,
  timeZone: string,
) {
  assertAdmin(actor);
  if (!isUuid(id)) throw new EventNotFoundError();
  return db.transaction(async (tx) => {
    // The update locks the row, so joins wait; a larger (or no) capacity seats those waiting.
    const [event] = await tx
      .update(events)
      .set({ ...columnsOf(input, timeZone), updatedAt: new Date() })
      .where(eq(events.id, id))
      .returning();
    if (!event) throw new EventNotFoundError();
    if (!hasEnded(event)) await fillSeats(tx, event);
    return event;
  });
}

/** 'Eliminar': the event, its participations and its gallery go together (foreign keys cascade). */
export async function deleteEvent(db: Db, actor: Actor, id: unknown): Promise<void> {
  assertAdmin(actor);
  if (!isUuid(id)) throw new EventNotFoundError();
  const deleted = await db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
  if (deleted.length === 0) throw new EventNotFoundError();
}

/** 'Agregar Imagen' to an event's gallery, at the end; admins only. */
export async function addGalleryImage(db: Db, actor: Actor, eventId: unknown, url: string) {
  assertAdmin(actor);
  if (!isUuid(eventId)) throw new EventNotFoundError();
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
    const [image] = await tx
      .insert(eventImages)
      .values({ eventId, url, position: (last?.max ?? -1) + 1 })
      .returning();
    return image!;
  });
}

/** 'Eliminar' one gallery image; admins only. */
export async function removeGalleryImage(
  db: Db,
  actor: Actor,
  eventId: unknown,
  imageId: unknown,
): Promise<void> {
  assertAdmin(actor);
  if (!isUuid(eventId) || !isUuid(imageId)) throw new EventNotFoundError();
  const deleted = await db
    .delete(eventImages)
    .where(and(eq(eventImages.id, imageId), eq(eventImages.eventId, eventId)))
    .returning({ id: eventImages.id });
  if (deleted.length === 0) throw new EventNotFoundError();
}
