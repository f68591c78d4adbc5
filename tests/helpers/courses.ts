// Courses and clubs of several sessions for the tests of sessions, attendance and reminders
// (decisions 043–045): an event with its sessions made by a rule, and members who joined long
// before it.
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "~/db/client.server";
import { eventSessions, participations, type User } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import { generateSessions } from "~/events/event-sessions.server";
import { createMember, createTestEvent } from "./events";
import type { TestServer } from "./server";

export const LA_PAZ = "America/La_Paz";
/** A time long before any test's event: nobody attends before joining. */
export const LONG_AGO = new Date("2020-01-01T00:00:00Z");

/** The event's sessions, by start. */
export function sessionsOf(db: Db, eventId: string) {
  return db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .orderBy(asc(eventSessions.startsAt));
}

/**
 * A course of four evenings, 19:00 to 21:00 in La Paz, from `monday` (YYYY-MM-DD) to Thursday,
 * with its sessions by start.
 */
export async function fourEveningCourse(db: Db, boss: User, monday: string) {
  const event = await createTestEvent(db, boss, {
    nombreEvento: `El Camino del Ratón ${randomUUID().slice(0, 6)}`,
    fechaEvento: monday,
    horaEvento: "19:00",
  });
  const [y, m, d] = monday.split("-").map(Number);
  const day = (n: number) => new Date(Date.UTC(y!, m! - 1, d! + n)).toISOString().slice(0, 10);
  await generateSessions(
    db,
    boss,
    event.id,
    { regla: "laborables", desde: day(1), hasta: day(3), inicio: "19:00", duracion: "120" },
    LA_PAZ,
  );
  const sessions = await sessionsOf(db, event.id);
  expect(sessions).toHaveLength(4);
  return { event, sessions };
}

/** A member of `server` who joined `eventId` long before it. */
export async function joinedLongAgo(
  server: TestServer,
  eventId: string,
  name = "Ana Quispe",
  db: Db = server.db,
) {
  const member = await createMember(server, `p-${randomUUID()}@example.com`, name);
  await joinEvent(db, member.user, eventId, LONG_AGO);
  await db
    .update(participations)
    .set({ joinedAt: LONG_AGO })
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, member.user.id)));
  return member;
}
