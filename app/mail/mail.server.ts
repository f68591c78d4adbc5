// Mail to members (docs/decisions/021-mail.md): what is queued, for whom, and what members choose.
// A mail is a row of mail_outbox written in the transaction of the change that causes it (a join,
// a leave, a seat from the waiting list, an event changed or deleted, a completed profile, an
// admin's message); app/mail/worker.server.ts sends it. A member who turned a topic off gets
// no row of it. The message itself is written when it is sent, from what the row holds.
import { desc, eq, sql, type SQL } from "drizzle-orm";
import { ALL_TOPICS, isMailTopic, MAIL_TOPICS, type MailTopic } from "~/mail/topics";
import { isUuid } from "~/kernel/checks";
import { type ParticipantsMessageInput } from "~/mail/schemas";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { events, mailOutbox, users, type User } from "~/db/schema.server";
import type { IcsEvent, IcsSession } from "~/kernel/ics.server";
import { EVENT_DEFAULT_DURATION_MS } from "~/kernel/limits";
import { assertMay, type Grant } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError } from "~/kernel/errors";

export const MAIL_KINDS = [
  "joined",
  "left",
  "seat",
  "reminder",
  "changed",
  "deleted",
  "sessionCancelled",
  "welcome",
  "message",
  // Payments (decision 048): transactional, never turned off.
  "paymentPending",
  "receiptReceived",
  "paymentConfirmed",
  "paymentRefused",
  "holdExpiring",
  "holdExpired",
  // The waiting list (decision 048): told when they join it.
  "waitlistJoined",
  // A team's place from its category's waiting list (decision 056), in a category without fee.
  "teamPlace",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The topic a member turns off to stop a kind; the welcome mail is sent once and has none. */
export const TOPIC_OF: Record<MailKind, MailTopic | null> = {
  joined: "participacion",
  left: "participacion",
  seat: "plazas",
  reminder: "recordatorios",
  changed: "cambios",
  deleted: "cambios",
  sessionCancelled: "cambios",
  message: "mensajes",
  welcome: null,
  paymentPending: null,
  receiptReceived: null,
  paymentConfirmed: null,
  paymentRefused: null,
  holdExpiring: null,
  holdExpired: null,
  waitlistJoined: "plazas",
  teamPlace: "plazas",
};

/**
 * The steps of a payment (decision 048): part of what the member is doing, so always sent, with
 * no unsubscribe link (app/mail/topics.ts, TRANSACTIONAL_MAIL_LABELS).
 */
export const TRANSACTIONAL_KINDS: ReadonlySet<MailKind> = new Set([
  "paymentPending",
  "receiptReceived",
  "paymentConfirmed",
  "paymentRefused",
  "holdExpiring",
  "holdExpired",
]);

/**
 * The event as it was when the mail was queued (`data.event`), dates as ISO text. Mails queued
 * before events had an end carry none: theirs is the default (decision 030).
 */
type EventSnapshot = Omit<
  IcsEvent,
  "startsAt" | "endsAt" | "createdAt" | "updatedAt" | "sessions"
> & {
  startsAt: string;
  endsAt?: string;
  /** Its sessions that were not cancelled; none in mails queued before sessions (decision 043). */
  sessions?: SessionSnapshot[];
  /** The group chat's link, in the mails of those with a place only (decision 047). */
  chatLink?: string | null;
  createdAt: string;
  updatedAt: string | null;
};

/** A session as a mail keeps it, dates as ISO text. */
export interface SessionSnapshot {
  id: string;
  startsAt: string;
  endsAt: string;
  place: string | null;
  link: string | null;
}

export function snapshotToSession(s: SessionSnapshot): IcsSession {
  return { ...s, startsAt: new Date(s.startsAt), endsAt: new Date(s.endsAt) };
}

/** Where a changed event was before (`data.before`). */
export type EventBefore = Pick<
  IcsEvent,
  | "startsAt"
  | "endsAt"
  | "ubicacionEvento"
  | "ubicacionEspecifica"
  | "tipoEvento"
  | "enlacesVirtuales"
>;

/** What a queued row's `data` may hold. */
export interface MailData {
  event?: EventSnapshot;
  before?: Omit<EventBefore, "startsAt" | "endsAt"> & { startsAt: string; endsAt?: string };
  asunto?: string;
  mensaje?: string;
  autor?: string;
  /** The session cancelled (`sessionCancelled`), or moved as it is now (`changed`). */
  session?: SessionSnapshot;
  /** Where and when a moved session was (`changed`). */
  sessionBefore?: SessionSnapshot;
  /** A reminder's session (decision 045): which of the event's sessions not cancelled, from 1. */
  sessionNumber?: number;
  /** A payment's step (decision 048), as it was when queued. */
  payment?: PaymentSnapshot;
  /** The team that got a place (`teamPlace`), with its category, as they were when queued. */
  team?: { id: string; name: string; category: string };
}

/** What a payment's mail says: the amount, the reference, until when, and how to pay. */
export interface PaymentSnapshot {
  reference: string;
  amountCents: number;
  /** Until when the place is held (ISO), when it is. */
  heldUntil: string | null;
  status: string;
  /** Why a treasurer refused it. */
  reason?: string | null;
  /** The place came from the waiting list. */
  fromWaitlist?: boolean;
  accountHolder?: string;
  bank?: string;
  instructions?: string;
  /** A team's fee (decision 052): the team paid for. */
  team?: { id: string; name: string };
}

export function snapshotToEvent(snapshot: EventSnapshot): IcsEvent {
  return {
    ...snapshot,
    startsAt: new Date(snapshot.startsAt),
    endsAt: snapshot.endsAt
      ? new Date(snapshot.endsAt)
      : new Date(new Date(snapshot.startsAt).getTime() + EVENT_DEFAULT_DURATION_MS),
    createdAt: new Date(snapshot.createdAt),
    updatedAt: snapshot.updatedAt ? new Date(snapshot.updatedAt) : null,
    sessions: snapshot.sessions?.map(snapshotToSession),
  };
}

/** The event row `e` as a snapshot, in SQL, so that queueing needs no read of it first. */
const EVENT_SNAPSHOT = sql.raw(`jsonb_build_object('id', e.id, 'nombreEvento', e.nombre_evento,
  'descripcion', e.descripcion, 'startsAt', e.starts_at, 'endsAt', e.ends_at,
  'ubicacionEvento', e.ubicacion_evento,
  'ubicacionEspecifica', e.ubicacion_especifica, 'tipoEvento', e.tipo_evento,
  'enlacesVirtuales', to_jsonb(e.enlaces_virtuales), 'createdAt', e.created_at,
  'updatedAt', e.updated_at, 'sessions', (select coalesce(jsonb_agg(jsonb_build_object(
    'id', s.id, 'startsAt', s.starts_at, 'endsAt', s.ends_at, 'place', s.place, 'link', s.link)
    order by s.starts_at, s.id), '[]'::jsonb)
    from event_sessions s where s.event_id = e.id and s.cancelled_at is null))`);

/**
 * The mails of those with a place carry the event's group chat link (decision 047); at a paid
 * event, only once their place is paid for or waived (decision 048).
 */
const WITH_CHAT_LINK: readonly MailKind[] = ["joined", "seat", "reminder", "paymentConfirmed"];

function snapshotFor(kind: MailKind): SQL {
  return WITH_CHAT_LINK.includes(kind)
    ? sql`${EVENT_SNAPSHOT} || jsonb_build_object('chatLink', case when e.price_cents = 0
        or exists (select 1 from payments pc where pc.event_id = e.id and pc.user_id = u.id
          and pc.status in ('confirmed', 'waived')) then e.chat_link end)`
    : sql`${EVENT_SNAPSHOT}`;
}

/** Who receives a mail: a subquery of user ids. */
export const recipients = {
  members: (ids: readonly string[]): SQL | null =>
    ids.length === 0
      ? null
      : sql`select id from users where id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
  participants: (eventId: string): SQL =>
    sql`select user_id from participations where event_id = ${eventId}::uuid`,
  waiting: (eventId: string): SQL =>
    sql`select user_id from event_waitlist where event_id = ${eventId}::uuid`,
};

/** Members among `who` who did not turn `kind`'s topic off. */
function reachable(kind: MailKind, who: SQL): SQL {
  const topic = TOPIC_OF[kind];
  return topic ? sql`u.id in (${who}) and not (${topic} = any(u.mail_off))` : sql`u.id in (${who})`;
}

/**
 * Queues one mail of `kind` to each member of `who` who has not turned its topic off, about
 * `eventId` (as the event is now, in this transaction) when given. Returns how many were queued.
 */
export async function queueMail(
  tx: Db,
  kind: MailKind,
  who: SQL | null,
  options: { eventId?: string; data?: MailData; dedupeKey?: string } = {},
): Promise<number> {
  if (!who) return 0;
  const extra = JSON.stringify(options.data ?? {});
  const result = options.eventId
    ? await tx.execute(sql`insert into mail_outbox (kind, user_id, event_id, data, dedupe_key)
        select ${kind}, u.id, e.id, jsonb_build_object('event', ${snapshotFor(kind)}) || ${extra}::jsonb,
          ${options.dedupeKey ?? null}
        from users u, events e
        where e.id = ${options.eventId}::uuid and ${reachable(kind, who)}
        on conflict (dedupe_key) do nothing
        returning id`)
    : await tx.execute(sql`insert into mail_outbox (kind, user_id, data)
        select ${kind}, u.id, ${extra}::jsonb from users u where ${reachable(kind, who)}
        returning id`);
  return rowsOf(result).length;
}

/**
 * Queues a reminder for every participant of each session (decision 045) that starts within
 * `hours` of `now`, once per member, session and start time (a session moved later is reminded of
 * again). An event of one session has one session with the event's own id, so its key is the one
 * reminders had before sessions: nothing is sent twice across the change. Someone who joined after
 * the reminder's moment has just had a confirmation, and gets none for that session; someone who
 * said they will miss a session gets none for it; a cancelled session has none. Any number of
 * processes may run this at once: the dedupe key keeps one row.
 */
export async function queueDueReminders(db: Db, now: Date, hours: number): Promise<number> {
  const at = now.toISOString();
  const key = sql.raw(
    `'reminder:' || rs.id || ':' || u.id || ':' || extract(epoch from rs.starts_at)::bigint`,
  );
  const due = sql`from participations p
    join events e on e.id = p.event_id
    join event_sessions rs on rs.event_id = e.id and rs.cancelled_at is null
    join users u on u.id = p.user_id
    where rs.starts_at > ${at}::timestamptz
      and rs.starts_at <= ${at}::timestamptz + make_interval(hours => ${hours})
      and p.joined_at <= rs.starts_at - make_interval(hours => ${hours})
      and not ('recordatorios' = any(u.mail_off))
      and not exists (select 1 from session_skips k where k.session_id = rs.id and k.user_id = u.id)
      and not exists (select 1 from mail_outbox m where m.dedupe_key = ${key})`;
  // Asked first, so that the INSERT (whose trigger wakes every worker) runs only when there is
  // something to queue: this runs every minute in every process.
  const [pending] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n ${due}`));
  if (!pending?.n) return 0;
  const session = sql.raw(`jsonb_build_object('session', jsonb_build_object('id', rs.id,
      'startsAt', rs.starts_at, 'endsAt', rs.ends_at, 'place', rs.place, 'link', rs.link),
    'sessionNumber', (select count(*)::int from event_sessions o where o.event_id = e.id
      and o.cancelled_at is null and (o.starts_at, o.id) <= (rs.starts_at, rs.id)))`);
  // Queued at `now` (the worker's clock), which is when it is due.
  const result = await db.execute(sql`insert into mail_outbox
      (kind, user_id, event_id, data, dedupe_key, created_at, next_attempt_at)
    select 'reminder', u.id, e.id, jsonb_build_object('event', ${snapshotFor("reminder")}) || ${session},
      ${key}, ${at}::timestamptz, ${at}::timestamptz
    ${due}
    on conflict (dedupe_key) do nothing
    returning id`);
  return rowsOf(result).length;
}

// ——— What members choose ———

/** The topics the member receives (the others are off). */
export function topicsOn(user: Pick<User, "mailOff">): MailTopic[] {
  return MAIL_TOPICS.filter((topic) => !user.mailOff.includes(topic));
}

/** /profile 'Correos': `on` stays on, every other topic is turned off. */
export async function saveMailPreferences(
  db: Db,
  member: Pick<User, "id">,
  on: readonly MailTopic[],
): Promise<void> {
  const off = MAIL_TOPICS.filter((topic) => !on.includes(topic));
  await db.update(users).set({ mailOff: off }).where(eq(users.id, member.id));
}

const MAIL_TOKEN = /^[0-9a-f]{64}$/;

/** The topics an unsubscribe link names: one, or all of them ('todos'); null if it names none. */
function linkTopics(topic: unknown): MailTopic[] | null {
  if (topic === ALL_TOPICS) return [...MAIL_TOPICS];
  return isMailTopic(topic) ? [topic] : null;
}

/** Whether an unsubscribe link (token and topic) is one the site made. */
export async function isUnsubscribeLink(db: Db, token: unknown, topic: unknown): Promise<boolean> {
  if (typeof token !== "string" || !MAIL_TOKEN.test(token) || !linkTopics(topic)) return false;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.mailToken, token))
    .limit(1);
  return row !== undefined;
}

/**
 * One-click unsubscribe (RFC 8058): turns the link's topic (or every topic) off for the member
 * whose link it is; no sign-in, the token is the proof. False for a link the site did not make.
 */
export async function unsubscribe(db: Db, token: unknown, topic: unknown): Promise<boolean> {
  const topics = linkTopics(topic);
  if (typeof token !== "string" || !MAIL_TOKEN.test(token) || !topics) return false;
  const updated = await db
    .update(users)
    .set({
      mailOff: sql`array(select distinct t from unnest(${users.mailOff} || array[${sql.join(
        topics.map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]) as t order by t)`,
    })
    .where(eq(users.mailToken, token))
    .returning({ id: users.id });
  return updated.length > 0;
}

// ——— Admins write to an event's participants ———

/**
 * 'Enviar mensaje a los participantes': queues the message to every participant (and, when asked,
 * everyone waiting) who has not turned messages off. Admins only. Returns how many will get it
 * and how many turned such messages off.
 */
export async function queueParticipantsMessage(
  db: Db,
  actor:
    | (Pick<User, "id" | "isAdmin" | "displayName" | "nombreCompleto" | "email"> & {
        grants?: readonly Grant[];
      })
    | null,
  eventId: unknown,
  input: ParticipantsMessageInput,
): Promise<{ queued: number; optedOut: number }> {
  const role = assertMay(actor, "event.message", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  return db.transaction(async (tx) => {
    const [event] = await tx
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, eventId))
      .limit(1);
    if (!event) throw new EventNotFoundError();
    const who = input.incluirEspera
      ? sql`${recipients.participants(eventId)} union ${recipients.waiting(eventId)}`
      : recipients.participants(eventId);
    const queued = await queueMail(tx, "message", who, {
      eventId,
      data: {
        asunto: input.asunto,
        mensaje: input.mensaje,
        autor: actor!.nombreCompleto?.trim() || actor!.displayName?.trim() || "Los organizadores",
      },
    });
    const [row] = rowsOf<{ n: number }>(
      await tx.execute(
        sql`select count(*)::int as n from users u where u.id in (${who}) and 'mensajes' = any(u.mail_off)`,
      ),
    );
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.message",
      itemKind: "event",
      itemId: eventId,
      summary: `Envió el mensaje «${input.asunto}» a ${queued} ${queued === 1 ? "persona" : "personas"}`,
    });
    return { queued, optedOut: row?.n ?? 0 };
  });
}

// ——— The development mailbox (/__dev/correo) ———

/** The name a mail greets and addresses the member by ('' when none is known). */
const MEMBER_NAME = sql<string>`coalesce(nullif(${users.nombreCompleto}, ''), nullif(${users.displayName}, ''), '')`;

/** The newest mails, whatever their state, for the development mailbox. */
export async function listMailbox(db: Db, limit = 50) {
  return db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
      email: users.email,
      name: MEMBER_NAME,
      mailToken: users.mailToken,
      data: mailOutbox.data,
    })
    .from(mailOutbox)
    .innerJoin(users, eq(users.id, mailOutbox.userId))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}

/** A queued mail as the worker reads it: the row and its recipient. */
export interface QueuedMail {
  id: string;
  kind: MailKind;
  data: MailData;
  attempts: number;
  email: string;
  name: string;
  mailToken: string;
}

/** One mail with its recipient, for the development mailbox; null if unknown. */
export async function getQueuedMail(db: Db, id: unknown): Promise<QueuedMail | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      data: mailOutbox.data,
      attempts: mailOutbox.attempts,
      email: users.email,
      name: MEMBER_NAME,
      mailToken: users.mailToken,
    })
    .from(mailOutbox)
    .innerJoin(users, eq(users.id, mailOutbox.userId))
    .where(eq(mailOutbox.id, id))
    .limit(1);
  return row ? { ...row, kind: row.kind as MailKind, data: row.data as MailData } : null;
}
