// An event's sessions (docs/decisions/043-event-sessions.md): a course's classes, a club's
// meetings. Organisers add one, generate several by a rule, move one or cancel one; every change
// is refused here unless an admin or one of the event's organisers asks, and is all or nothing.
// The event's own start and end follow its first and last session that is not cancelled, in the
// same transaction, so every list, state and calendar that reads the event stays right.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { events, eventSessions, type EventSession, type User } from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { isHttpUrl, isRealDate, isUuid } from "~/kernel/checks";
import { EventNotFoundError, Refusal } from "~/kernel/errors";
import { EVENT_SESSIONS_MAX, SESSION_LINK_MAX, SESSION_PLACE_MAX } from "~/kernel/limits";
import { formatDateTimeRange, zonedDateTime, zonedToInstant } from "~/kernel/time";
import { queueMail, recipients, type SessionSnapshot } from "~/mail/mail.server";
import { assertMay, type Grant } from "~/kernel/permissions";

type Actor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> & {
      grants?: readonly Grant[];
    })
  | null;

/** A refused change of sessions; `field` is the form field to correct, when one is. */
export class EventSessionError extends Refusal {
  override name = "EventSessionError";
  constructor(message: string, field?: string, status: 400 | 404 | 409 = 400) {
    super(message, status, { field });
  }
}

export const SESSION_MESSAGES = {
  notFound: "Sesión no encontrada.",
  badDate: "Escribe una fecha válida (AAAA-MM-DD).",
  badTime: "Escribe una hora válida (HH:MM).",
  endBeforeStart: "La hora de fin debe ser posterior a la de inicio.",
  badDuration: "La duración debe ser un número entero de minutos entre 1 y 1440.",
  badPlace: `El lugar de la sesión debe tener como máximo ${SESSION_PLACE_MAX} caracteres.`,
  badLink: "El enlace de la sesión debe ser una dirección http:// o https:// válida.",
  tooMany: `Un evento puede tener como máximo ${EVENT_SESSIONS_MAX} sesiones.`,
  overlap: "La sesión se superpone con otra sesión del evento.",
  emptyRule: "La regla no da ninguna sesión entre esas fechas.",
  untilBeforeFrom: "La fecha final debe ser igual o posterior a la inicial.",
  badWeeks: `El número de semanas debe ser un número entero entre 1 y ${EVENT_SESSIONS_MAX}.`,
  noDays: "Elige al menos un día de la semana.",
  badRule: "Elige una regla: de lunes a viernes, o ciertos días durante unas semanas.",
  cancelled: "Esta sesión está cancelada; ya no se puede cambiar.",
  lastSession:
    "Es la única sesión que queda del evento. Para cancelarlo todo, elimina el evento desde el panel.",
} as const;

/** What the session forms post, before it is checked. */
export interface SessionFields {
  fecha: unknown;
  inicio: unknown;
  fin: unknown;
  lugar?: unknown;
  enlace?: unknown;
}

/** A rule's form: every weekday between two dates, or chosen weekdays for some weeks. */
export interface RuleFields {
  regla: unknown;
  desde: unknown;
  hasta?: unknown;
  semanas?: unknown;
  dias?: unknown[];
  inicio: unknown;
  duracion: unknown;
  lugar?: unknown;
  enlace?: unknown;
}

interface Span {
  startsAt: Date;
  endsAt: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59);

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

function dateOf(value: unknown, field: string): string {
  const v = text(value);
  if (!isRealDate(v)) throw new EventSessionError(SESSION_MESSAGES.badDate, field);
  return v;
}

function timeOf(value: unknown, field: string): string {
  const v = text(value);
  const match = /^(\d{2}):(\d{2})$/.exec(v);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59)
    throw new EventSessionError(SESSION_MESSAGES.badTime, field);
  return v;
}

function instantOf(fecha: string, hora: string, timeZone: string, field: string): Date {
  const at = zonedToInstant(fecha, hora, timeZone);
  if (!(at.getTime() <= LAST_INSTANT)) throw new EventSessionError(SESSION_MESSAGES.badDate, field);
  return at;
}

/** The optional place and link of a session: trimmed, the link only http(s). */
function placeAndLink(fields: { lugar?: unknown; enlace?: unknown }) {
  const place = text(fields.lugar);
  const link = text(fields.enlace);
  if (place.length > SESSION_PLACE_MAX)
    throw new EventSessionError(SESSION_MESSAGES.badPlace, "lugar");
  if (link !== "" && (link.length > SESSION_LINK_MAX || !isHttpUrl(link)))
    throw new EventSessionError(SESSION_MESSAGES.badLink, "enlace");
  return { place: place || null, link: link || null };
}

/** One session's form: a date, a start and an end on that day, in `timeZone`. */
export function parseSession(fields: SessionFields, timeZone: string) {
  const fecha = dateOf(fields.fecha, "fecha");
  const inicio = timeOf(fields.inicio, "inicio");
  const fin = timeOf(fields.fin, "fin");
  const startsAt = instantOf(fecha, inicio, timeZone, "fecha");
  const endsAt = instantOf(fecha, fin, timeZone, "fecha");
  if (endsAt.getTime() <= startsAt.getTime())
    throw new EventSessionError(SESSION_MESSAGES.endBeforeStart, "fin");
  return { startsAt, endsAt, ...placeAndLink(fields) };
}

function addDays(fecha: string, days: number): string {
  const [y, m, d] = fecha.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

function weekdayOf(fecha: string): number {
  const [y, m, d] = fecha.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The sessions a rule gives, in `timeZone`: each starts at `inicio` on the wall clock of its own
 * day (so a daylight-saving change moves the instant, not the hour people read) and lasts
 * `duracion` minutes. Stops counting past EVENT_SESSIONS_MAX + 1: more is refused anyway.
 */
export function sessionsOfRule(fields: RuleFields, timeZone: string) {
  const desde = dateOf(fields.desde, "desde");
  const inicio = timeOf(fields.inicio, "inicio");
  const duracionText = text(fields.duracion);
  const minutes = /^\d{1,4}$/.test(duracionText) ? Number(duracionText) : NaN;
  if (!(minutes >= 1 && minutes <= 1440))
    throw new EventSessionError(SESSION_MESSAGES.badDuration, "duracion");
  const extra = placeAndLink(fields);
  let days: Set<number>;
  let last: string;
  if (fields.regla === "laborables") {
    last = dateOf(fields.hasta, "hasta");
    if (last < desde) throw new EventSessionError(SESSION_MESSAGES.untilBeforeFrom, "hasta");
    days = new Set([1, 2, 3, 4, 5]);
  } else if (fields.regla === "semanal") {
    const weeksText = text(fields.semanas);
    const weeks = /^\d{1,3}$/.test(weeksText) ? Number(weeksText) : NaN;
    if (!(weeks >= 1 && weeks <= EVENT_SESSIONS_MAX))
      throw new EventSessionError(SESSION_MESSAGES.badWeeks, "semanas");
    const chosen = (fields.dias ?? []).map((d) => text(d));
    if (chosen.length === 0) throw new EventSessionError(SESSION_MESSAGES.noDays, "dias");
    if (chosen.some((d) => !/^[0-6]$/.test(d)))
      throw new EventSessionError(SESSION_MESSAGES.noDays, "dias");
    days = new Set(chosen.map(Number));
    last = addDays(desde, weeks * 7 - 1);
  } else {
    throw new EventSessionError(SESSION_MESSAGES.badRule, "regla");
  }
  const out: Array<Span & { place: string | null; link: string | null }> = [];
  for (let day = desde; day <= last && out.length <= EVENT_SESSIONS_MAX; day = addDays(day, 1)) {
    if (!days.has(weekdayOf(day))) continue;
    const startsAt = instantOf(day, inicio, timeZone, "desde");
    const endsAt = new Date(startsAt.getTime() + minutes * 60_000);
    if (endsAt.getTime() > LAST_INSTANT)
      throw new EventSessionError(SESSION_MESSAGES.badDate, "hasta");
    out.push({ startsAt, endsAt, ...extra });
  }
  if (out.length === 0) throw new EventSessionError(SESSION_MESSAGES.emptyRule, "desde");
  return out;
}

/** Whether any two of `spans` overlap (touching ends do not). */
function overlapping(spans: readonly Span[]): boolean {
  const sorted = [...spans].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.startsAt.getTime() < sorted[i - 1]!.endsAt.getTime()) return true;
  }
  return false;
}

/** Every session of an event, cancelled ones too, in order. */
export async function listSessions(db: Db, eventId: string): Promise<EventSession[]> {
  if (!isUuid(eventId)) return [];
  return db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .orderBy(asc(eventSessions.startsAt), asc(eventSessions.id));
}

/**
 * The event's start and end (and its form's date and time) set to its first and last session
 * that is not cancelled. Called in the transaction of every change of sessions.
 */
export async function followSessions(tx: Db | Tx, eventId: string, timeZone: string) {
  const [bounds] = await tx
    .select({
      startsAt: sql<string>`min(${eventSessions.startsAt})`,
      endsAt: sql<string>`max(${eventSessions.endsAt})`,
    })
    .from(eventSessions)
    .where(and(eq(eventSessions.eventId, eventId), isNull(eventSessions.cancelledAt)));
  if (!bounds?.startsAt) return;
  const startsAt = new Date(bounds.startsAt);
  const wall = zonedDateTime(startsAt, timeZone);
  await tx
    .update(events)
    .set({
      startsAt,
      endsAt: new Date(bounds.endsAt),
      fechaEvento: wall.date,
      horaEvento: wall.time,
      updatedAt: new Date(),
    })
    .where(eq(events.id, eventId));
}

/** Locks the event (so two organisers' changes go one after the other) and reads its sessions. */
async function lockedEvent(tx: Tx, eventId: string) {
  const [event] = await tx
    .select({ id: events.id, nombreEvento: events.nombreEvento })
    .from(events)
    .where(eq(events.id, eventId))
    .for("update");
  if (!event) throw new EventNotFoundError();
  const sessions = await tx
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .orderBy(asc(eventSessions.startsAt));
  return { event, sessions };
}

/** `field`: where the form says it (a session's date, a rule's first day). */
function checkFits(
  existing: readonly EventSession[],
  added: readonly Span[],
  field: "fecha" | "desde",
  without?: string,
) {
  const kept = existing.filter((s) => s.id !== without);
  if (kept.length + added.length > EVENT_SESSIONS_MAX)
    throw new EventSessionError(SESSION_MESSAGES.tooMany);
  const live = kept.filter((s) => s.cancelledAt === null);
  if (overlapping([...live, ...added]))
    throw new EventSessionError(SESSION_MESSAGES.overlap, field);
}

function allowed(actor: Actor, eventId: unknown) {
  const role = assertMay(actor, "event.edit", {
    eventId: typeof eventId === "string" ? eventId : "",
  });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  return role;
}

const range = (s: Span, timeZone: string) => formatDateTimeRange(s.startsAt, s.endsAt, timeZone);

/**
 * New sessions into an event, all or none: they must fit among its sessions (the refusal shown by
 * `field`), the event's dates then follow them, and the change is audited.
 */
async function insertSessions(
  db: Db,
  actor: Actor,
  role: ReturnType<typeof allowed>,
  eventId: unknown,
  added: Span[],
  field: Parameters<typeof checkFits>[2],
  timeZone: string,
  summary: (eventName: string) => string,
): Promise<EventSession[]> {
  return db.transaction(async (tx) => {
    const { event, sessions } = await lockedEvent(tx, eventId as string);
    checkFits(sessions, added, field);
    const rows = await tx
      .insert(eventSessions)
      .values(added.map((s) => ({ eventId: event.id, ...s })))
      .returning();
    await followSessions(tx, event.id, timeZone);
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.sessions",
      itemKind: "event",
      itemId: event.id,
      summary: summary(event.nombreEvento),
    });
    return rows;
  });
}

/** 'Agregar sesión': one session on a date, from a start to an end. */
export async function addSession(
  db: Db,
  actor: Actor,
  eventId: unknown,
  fields: SessionFields,
  timeZone: string,
): Promise<EventSession> {
  const role = allowed(actor, eventId);
  const session = parseSession(fields, timeZone);
  const [row] = await insertSessions(
    db,
    actor,
    role,
    eventId,
    [session],
    "fecha",
    timeZone,
    (name) => `Agregó una sesión a «${name}»: ${range(session, timeZone)}`,
  );
  return row!;
}

/** 'Generar sesiones': every session a rule gives, all or none. Returns how many. */
export async function generateSessions(
  db: Db,
  actor: Actor,
  eventId: unknown,
  fields: RuleFields,
  timeZone: string,
): Promise<number> {
  const role = allowed(actor, eventId);
  const generated = sessionsOfRule(fields, timeZone);
  const n = generated.length;
  await insertSessions(
    db,
    actor,
    role,
    eventId,
    generated,
    "desde",
    timeZone,
    (name) => `Generó ${n} ${n === 1 ? "sesión" : "sesiones"} de «${name}»`,
  );
  return n;
}

/** A session as a queued mail keeps it. */
function sessionSnapshot(s: EventSession): SessionSnapshot {
  return {
    id: s.id,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    place: s.place,
    link: s.link,
  };
}

/** 'Guardar' one session: moved to another date or time, or its place or link changed. */
export async function updateSession(
  db: Db,
  actor: Actor,
  eventId: unknown,
  sessionId: unknown,
  fields: SessionFields,
  timeZone: string,
  now: Date = new Date(),
): Promise<{ session: EventSession; told: boolean }> {
  const role = allowed(actor, eventId);
  if (!isUuid(sessionId)) throw new EventSessionError(SESSION_MESSAGES.notFound, undefined, 404);
  const session = parseSession(fields, timeZone);
  return db.transaction(async (tx) => {
    const { event, sessions } = await lockedEvent(tx, eventId as string);
    const current = sessions.find((s) => s.id === sessionId);
    if (!current) throw new EventSessionError(SESSION_MESSAGES.notFound, undefined, 404);
    if (current.cancelledAt)
      throw new EventSessionError(SESSION_MESSAGES.cancelled, undefined, 409);
    checkFits(sessions, [session], "fecha", current.id);
    const [row] = await tx
      .update(eventSessions)
      .set(session)
      .where(eq(eventSessions.id, current.id))
      .returning();
    await followSessions(tx, event.id, timeZone);
    // Moved or relocated while it still matters (it had not ended, or now ends later): those who
    // take part or wait are told, with the session's new time and place for their calendar.
    const changed =
      current.startsAt.getTime() !== row!.startsAt.getTime() ||
      current.endsAt.getTime() !== row!.endsAt.getTime() ||
      current.place !== row!.place ||
      current.link !== row!.link;
    const told =
      changed && Math.max(current.endsAt.getTime(), row!.endsAt.getTime()) > now.getTime();
    if (told) {
      const who = sql`${recipients.participants(event.id)} union ${recipients.waiting(event.id)}`;
      await queueMail(tx, "changed", who, {
        eventId: event.id,
        data: { session: sessionSnapshot(row!), sessionBefore: sessionSnapshot(current) },
      });
    }
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.sessions",
      itemKind: "event",
      itemId: event.id,
      summary: `Cambió una sesión de «${event.nombreEvento}»: ${range(current, timeZone)} → ${range(session, timeZone)}`,
    });
    return { session: row!, told };
  });
}

/**
 * 'Cancelar sesión': it stays listed as cancelled, and those who take part or wait for a seat are
 * told by mail when it had not ended yet (returns whether it had). The event's last session left
 * cannot be cancelled: the event itself is deleted instead.
 */
export async function cancelSession(
  db: Db,
  actor: Actor,
  eventId: unknown,
  sessionId: unknown,
  timeZone: string,
  now: Date = new Date(),
): Promise<boolean> {
  const role = allowed(actor, eventId);
  if (!isUuid(sessionId)) throw new EventSessionError(SESSION_MESSAGES.notFound, undefined, 404);
  return db.transaction(async (tx) => {
    const { event, sessions } = await lockedEvent(tx, eventId as string);
    const current = sessions.find((s) => s.id === sessionId);
    if (!current) throw new EventSessionError(SESSION_MESSAGES.notFound, undefined, 404);
    if (current.cancelledAt)
      throw new EventSessionError(SESSION_MESSAGES.cancelled, undefined, 409);
    if (sessions.filter((s) => s.cancelledAt === null).length === 1)
      throw new EventSessionError(SESSION_MESSAGES.lastSession, undefined, 409);
    await tx
      .update(eventSessions)
      .set({ cancelledAt: now })
      .where(eq(eventSessions.id, current.id));
    await followSessions(tx, event.id, timeZone);
    const upcoming = current.endsAt.getTime() > now.getTime();
    if (upcoming) {
      const who = sql`${recipients.participants(event.id)} union ${recipients.waiting(event.id)}`;
      await queueMail(tx, "sessionCancelled", who, {
        eventId: event.id,
        data: { session: sessionSnapshot(current) },
      });
    }
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.sessions",
      itemKind: "event",
      itemId: event.id,
      summary: `Canceló una sesión de «${event.nombreEvento}»: ${range(current, timeZone)}`,
    });
    return upcoming;
  });
}

/**
 * After events were written in bulk (the Firebase import, the demo): an event without a session
 * gets the one spanning it, with its id; an event with one session moves it to the event's dates;
 * an event with several takes its dates from them again (in `timeZone`, for the form's date and
 * time).
 */
export async function giveEventsTheirSessions(tx: Db | Tx, timeZone: string): Promise<void> {
  await tx.execute(sql`insert into event_sessions (id, event_id, starts_at, ends_at, created_at)
    select e.id, e.id, e.starts_at, e.ends_at, e.created_at from events e
    where not exists (select 1 from event_sessions s where s.event_id = e.id)
    on conflict (id) do nothing`);
  await tx.execute(sql`update event_sessions s set starts_at = e.starts_at, ends_at = e.ends_at
    from events e
    where s.event_id = e.id
      and (select count(*) from event_sessions o where o.event_id = e.id) = 1
      and (s.starts_at, s.ends_at) is distinct from (e.starts_at, e.ends_at)`);
  await tx.execute(sql`update events e set starts_at = b.first, ends_at = b.last,
      fecha_evento = (b.first at time zone ${timeZone})::date,
      hora_evento = (b.first at time zone ${timeZone})::time
    from (select event_id, min(starts_at) as first, max(ends_at) as last from event_sessions
      where cancelled_at is null group by event_id having count(*) > 1) b
    where b.event_id = e.id and (e.starts_at, e.ends_at) is distinct from (b.first, b.last)`);
}
