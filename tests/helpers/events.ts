// Events in tests: a valid event form, factories that go through the real model functions, and
// a snapshot of everything an event action could change.
import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import {
  eventImages,
  eventSessions,
  events,
  mailOutbox,
  participations,
  sessionAttendance,
  siteSections,
  users,
  type User,
} from "~/db/schema.server";
import { createEvent } from "~/events/event-commands.server";
import { addGalleryImage } from "~/events/gallery.server";
import { EventSchema } from "~/events/schemas";
import { BrowserClient } from "./browser-client";
import { signInMember } from "./sign-in";
import type { TestServer } from "./server";

export const ADMIN_EMAIL = "jefa@example.com";

export const VALID_EVENT = {
  nombreEvento: "Clash Robotics Edición 2025",
  ubicacionEvento: "Bolivia, La Paz",
  tipoEvento: "Presencial",
  fechaEvento: "2030-12-06",
  horaEvento: "19:00",
  imagenEnlace: "https://example.com/clash.png",
  ubicacionEspecifica: "Obrajes C2",
  descripcion: "Competencia de robótica.\nSumo y seguidor de línea.",
} as const;

export type EventField = keyof typeof VALID_EVENT | "fechaFin" | "horaFin";

/** A form as the browser would post it: `intent`, the fields, and `enlacesVirtuales` rows. */
export function eventForm(
  intent: string,
  overrides: Partial<Record<EventField, string>> = {},
  links: string[] = [],
  without?: EventField,
  extra: Record<string, string> = {},
): URLSearchParams {
  const form = new URLSearchParams({ intent, ...extra });
  for (const [key, value] of Object.entries({ ...VALID_EVENT, ...overrides })) {
    if (key !== without) form.append(key, value);
  }
  for (const link of links) form.append("enlacesVirtuales", link);
  return form;
}

let counter = 0;

/** A signed-in member whose profile is complete (see signInMember). */
export async function createMember(
  server: TestServer,
  email = `miembro-${randomUUID()}@example.com`,
  name = `Miembro ${++counter}`,
) {
  const client = await signInMember(server.url, email, name);
  const [user] = await server.db.select().from(users).where(eq(users.email, email));
  return { client, user: user! };
}

/** The admin of ADMIN_EMAILS (the server must be started with it). */
export function createAdmin(server: TestServer) {
  return createMember(server, ADMIN_EMAIL, "Jefa Admin");
}

/** An event stored through the model, as an admin would publish it. */
export async function createTestEvent(
  db: Db,
  admin: User,
  overrides: Partial<Record<EventField | "capacity" | "enlaceGrupo", string>> = {},
  links: string[] = [],
) {
  const input = EventSchema.parse({ ...VALID_EVENT, ...overrides, enlacesVirtuales: links });
  return createEvent(db, admin, input, "America/La_Paz");
}

/**
 * Moves a one-session event (and its session) to start `minutes` after `now` and last three
 * hours, so that its door, open from the event's hours before its start (decision 075), is open
 * while the event is still to come.
 */
export async function openForCheckIn(db: Db, eventId: string, now = new Date(), minutes = 30) {
  const startsAt = new Date(now.getTime() + minutes * 60_000);
  const endsAt = new Date(startsAt.getTime() + 3 * 3_600_000);
  await db.update(events).set({ startsAt, endsAt }).where(eq(events.id, eventId));
  await db
    .update(eventSessions)
    .set({ startsAt, endsAt })
    .where(eq(eventSessions.eventId, eventId));
  return { startsAt, endsAt };
}

export async function addImage(db: Db, admin: User, eventId: string, url: string) {
  return addGalleryImage(db, admin, eventId, url);
}

/** Every row an event action can touch, to prove that a refused request changed nothing. */
export async function snapshot(db: Db) {
  return {
    events: await db.select().from(events).orderBy(asc(events.id)),
    images: await db.select().from(eventImages).orderBy(asc(eventImages.id)),
    participations: await db
      .select()
      .from(participations)
      .orderBy(asc(participations.userId), asc(participations.eventId)),
    attendance: await db
      .select()
      .from(sessionAttendance)
      .orderBy(asc(sessionAttendance.sessionId), asc(sessionAttendance.userId)),
    admins: await db
      .select({ id: users.id, isAdmin: users.isAdmin, mailOff: users.mailOff })
      .from(users)
      .orderBy(asc(users.id)),
    // Which mails are queued (not their sending state, which the worker moves on by itself).
    mails: await db
      .select({ id: mailOutbox.id, kind: mailOutbox.kind, userId: mailOutbox.userId })
      .from(mailOutbox)
      .orderBy(asc(mailOutbox.id)),
    siteSections: await db.select().from(siteSections).orderBy(asc(siteSections.section)),
  };
}

/**
 * What `snapshot` compares, as one hash the database computes in one query: for tests that check
 * thousands of times that nothing changed (malformed-bodies.test.ts). Equal data, equal hash.
 */
export async function fingerprint(db: Db): Promise<string> {
  const [row] = rowsOf<{ hash: string }>(
    await db.execute(sql`
      select md5(concat_ws('|',
        (select string_agg(t::text, ',' order by t.id) from events t),
        (select string_agg(t::text, ',' order by t.id) from event_images t),
        (select string_agg(t::text, ',' order by t.user_id, t.event_id) from participations t),
        (select string_agg(t::text, ',' order by t.session_id, t.user_id) from session_attendance t),
        (select string_agg(concat_ws(':', t.id, t.is_admin, t.mail_off), ',' order by t.id) from users t),
        (select string_agg(concat_ws(':', t.id, t.kind, t.user_id), ',' order by t.id) from mail_outbox t),
        (select string_agg(t::text, ',' order by t.section) from site_content t)
      )) as hash`),
  );
  return row!.hash;
}

export function alertsIn(html: string): string[] {
  return [...html.matchAll(/<p class="dialog-message">([^<]*)<\/p>/g)].map((m) => m[1]!);
}

export function eventFieldError(html: string, field: string): string | null {
  return (
    new RegExp(`<p class="field-error" id="evento-${field}-error">([^<]*)</p>`).exec(html)?.[1] ??
    null
  );
}

/** Follows a redirect and returns the page with its flash message. */
export async function landOn(
  client: BrowserClient,
  reply: { status: number; location: string | null },
) {
  if (reply.status !== 302 || !reply.location)
    throw new Error(`Se esperaba una redirección, llegó ${reply.status}`);
  return client.get(reply.location);
}
