// One door rule (docs/decisions/075-one-door-rule.md): the hours the organiser sets for the event's
// door govern each session's door, for the scanned pass, the typed code, the offline queue and
// 'Marcar presente' alike; a closed door says when it opens and changes nothing.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkIn, checkInToken, CheckInError } from "~/attendance/check-in.server";
import { setDoorWindow } from "~/attendance/door-window.server";
import { setCheckedIn } from "~/attendance/attendance.server";
import { eventSessions, participations, sessionAttendance, type User } from "~/db/schema.server";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createTestEvent } from "../helpers/events";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";
import { BrowserClient } from "../helpers/browser-client";
import { joinedLongAgo, LA_PAZ } from "../helpers/courses";

const MINUTE = 60_000;
let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

/** A one-session event on 2030-12-06 from 09:00 (La Paz), with one participant. */
async function morningEvent() {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Taller de robótica",
    fechaEvento: "2030-12-06",
    horaEvento: "09:00",
  });
  const [session] = await server.db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.eventId, event.id));
  const member = await joinedLongAgo(server, event.id, "Ana Quispe");
  return { event, session: session!, member: member.user };
}

async function recorded(eventId: string, userId: string) {
  const [p] = await server.db
    .select({ at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)));
  const sessions = await server.db
    .select({ id: sessionAttendance.sessionId })
    .from(sessionAttendance)
    .where(and(eq(sessionAttendance.eventId, eventId), eq(sessionAttendance.userId, userId)));
  return { at: p?.at ?? null, sessions: sessions.length };
}

test("the event's door hours govern its session: three hours before, a valid pass is taken", async () => {
  const { event, session, member } = await morningEvent();
  const at = new Date(session.startsAt.getTime() - 105 * MINUTE);
  const result = await checkIn(
    server.db,
    TEST_SESSION_SECRET,
    admin.user,
    event.id,
    { token: checkInToken(TEST_SESSION_SECRET, event.id, member.id) },
    at,
    LA_PAZ,
  );
  expect([result.outcome, result.sessionId]).toEqual(["checkedIn", session.id]);
  expect(await recorded(event.id, member.id)).toEqual({ at, sessions: 1 });
});

test("before the door opens a pass is refused with when it opens, and nothing changes", async () => {
  const { event, session, member } = await morningEvent();
  await setDoorWindow(server.db, admin.user, event.id, 1, 2);
  const early = new Date(session.startsAt.getTime() - 105 * MINUTE);
  const error = await checkIn(
    server.db,
    TEST_SESSION_SECRET,
    admin.user,
    event.id,
    { token: checkInToken(TEST_SESSION_SECRET, event.id, member.id) },
    early,
    LA_PAZ,
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CheckInError);
  expect([(error as CheckInError).status, (error as CheckInError).message]).toEqual([
    409,
    "La puerta abre a las 08:00.",
  ]);
  expect(await recorded(event.id, member.id)).toEqual({ at: null, sessions: 0 });
  // After it closes (2 h after the end), it says when it closed.
  const late = new Date(session.endsAt.getTime() + 2 * 60 * MINUTE + 1);
  const closed = await checkIn(
    server.db,
    TEST_SESSION_SECRET,
    admin.user,
    event.id,
    { token: checkInToken(TEST_SESSION_SECRET, event.id, member.id) },
    late,
    LA_PAZ,
  ).catch((e: unknown) => e);
  expect((closed as CheckInError).message).toMatch(/^La puerta cerró a las \d\d:\d\d\.$/);
  expect(await recorded(event.id, member.id)).toEqual({ at: null, sessions: 0 });
});

test("'Marcar presente' is refused on the server before the door opens, and the page does not offer it", async () => {
  const { event, member } = await morningEvent();
  // The server's clock is years before the event: the door has not opened.
  const page = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(page.status).toBe(200);
  expect(page.text).not.toContain(`Marcar presente a Ana Quispe`);
  expect(page.text).toContain("La puerta abre el viernes 6 de diciembre a las 06:00.");
  const posted = await admin.client.post(`/admin/eventos/${event.id}/participantes`, {
    intent: "checkIn",
    userId: member.id,
  });
  expect(posted.status).toBe(409);
  expect(posted.text).toContain("La puerta abre el viernes 6 de diciembre a las 06:00.");
  expect(await recorded(event.id, member.id)).toEqual({ at: null, sessions: 0 });
  // The model refuses it too, whoever calls it.
  await expect(
    setCheckedIn(server.db, admin.user, event.id, member.id, true, new Date(), LA_PAZ),
  ).rejects.toThrow("La puerta abre el viernes 6 de diciembre a las 06:00.");
});

test("the door page says when the door opens instead of offering a form", async () => {
  const { event } = await morningEvent();
  const page = await admin.client.get(`/admin/eventos/${event.id}/registro`);
  expect(page.status).toBe(200);
  expect(page.text).toContain("La puerta abre el viernes 6 de diciembre a las 06:00.");
  expect(page.text).not.toContain('name="codigo"');
  const data = await admin.client.get(`/admin/eventos/${event.id}/registro/datos`);
  expect(data.status).toBe(200);
  expect(JSON.parse(data.text).doors).toHaveLength(1);
});
