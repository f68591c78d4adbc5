// Events as a series of sessions (issue 34, decision 043): the organisers' editor over plain POST
// forms (add, generate by a rule, change, cancel), the rules in La Paz and across a daylight-saving
// change, every refusal in Spanish with nothing changed, who may, the event's dates following its
// sessions, the page, the cards and every calendar with one VEVENT per session, the mail of a
// cancelled session, the migration of existing events and backups with and without the table.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { asc, eq, sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, expect, test } from "vitest";
import { rowsOf } from "~/db/rows.server";
import { events, eventSessions, mailOutbox, users, type User } from "~/db/schema.server";
import { renewCalendarToken } from "~/events/calendar.server";
import { joinEvent } from "~/events/participation.server";
import {
  addSession,
  generateSessions,
  listSessions,
  SESSION_MESSAGES,
  sessionsOfRule,
  updateSession,
} from "~/events/event-sessions.server";
import { composeMail, mailSite } from "~/mail/compose.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { getQueuedMail } from "~/mail/mail.server";
import { may, NotAllowedError } from "~/kernel/permissions";
import { grantRole, loadGrants } from "~/members/roles.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { zonedDateTime } from "~/kernel/time";
import { eventScope } from "~/events/event.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import type { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createTestDatabase } from "../helpers/database";
import { createAdmin, createMember, createTestEvent, eventForm, landOn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const ZONE = "America/La_Paz";
let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person;
let member: Person;
let door: Person;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  member = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  door = await createMember(server, `puerta-${randomUUID()}@example.com`, "Pedro Puerta");
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

/** A course in 2030 (far from now, so that nothing has ended), with its organiser and door staff. */
async function course(name = "El Camino del Ratón") {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: name,
    fechaEvento: "2030-11-04",
    horaEvento: "19:00",
    fechaFin: "2030-11-04",
    horaFin: "21:00",
  });
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  return event;
}

async function sessionsOf(eventId: string) {
  return server.db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .orderBy(asc(eventSessions.startsAt));
}

async function eventRow(eventId: string) {
  const [row] = await server.db.select().from(events).where(eq(events.id, eventId));
  return row!;
}

/** Everything a session post could change. */
async function state() {
  return {
    events: await server.db.select().from(events).orderBy(asc(events.id)),
    sessions: await server.db.select().from(eventSessions).orderBy(asc(eventSessions.id)),
    mails: (await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length,
  };
}

const post = (p: Person, eventId: string, fields: Record<string, string | string[]>) => {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields))
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  return p.client.post(`/admin/eventos/${eventId}/sesiones`, form);
};

/** The errors the page shows (by a field or above the forms), not what its data script carries. */
function shownError(html: string): string[] {
  return [...html.matchAll(/<p class="field-error"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]!);
}

const weekdays = (desde: string, hasta: string) => ({
  intent: "generateSessions",
  regla: "laborables",
  desde,
  hasta,
  inicio: "19:00",
  duracion: "120",
});

test("a new event has one session with its own id; the form's start and end move it", async () => {
  const event = await course("Taller de una tarde");
  const [only] = await sessionsOf(event.id);
  expect(only!.id).toBe(event.id);
  expect(only!.startsAt).toEqual(new Date("2030-11-04T23:00:00Z"));
  expect(only!.endsAt).toEqual(new Date("2030-11-05T01:00:00Z"));
  const reply = await admin.client.post(
    `/admin/eventos/${event.id}/sesiones`,
    eventForm(
      "update",
      {
        nombreEvento: "Taller de una tarde",
        fechaEvento: "2030-11-06",
        horaEvento: "18:00",
        fechaFin: "2030-11-06",
        horaFin: "20:30",
      },
      [],
      undefined,
      { eventId: event.id },
    ),
  );
  expect(reply.status).toBe(302);
  const sessions = await sessionsOf(event.id);
  expect(sessions.map((s) => [s.id, s.startsAt.toISOString(), s.endsAt.toISOString()])).toEqual([
    [event.id, "2030-11-06T22:00:00.000Z", "2030-11-07T00:30:00.000Z"],
  ]);
});

test("an organiser generates Monday to Friday by a plain POST; the event's dates follow; the form then leaves them alone", async () => {
  const event = await course();
  // The first session (the 4th, a Monday) is already there: the rule starts on Tuesday.
  const reply = await post(organiser, event.id, weekdays("2030-11-05", "2030-11-12"));
  expect(reply.status).toBe(302);
  const sessions = await sessionsOf(event.id);
  // Tue 5 – Fri 8, Mon 11, Tue 12: six, and the first.
  expect(sessions.length).toBe(7);
  expect(sessions.map((s) => s.startsAt.toISOString().slice(0, 10))).toEqual([
    "2030-11-04",
    "2030-11-05",
    "2030-11-06",
    "2030-11-07",
    "2030-11-08",
    "2030-11-11",
    "2030-11-12",
  ]);
  // 19:00 in La Paz (UTC−4, no daylight saving) is 23:00 UTC every day.
  for (const s of sessions) expect(s.startsAt.toISOString().slice(11, 16)).toBe("23:00");
  const row = await eventRow(event.id);
  expect(row.startsAt).toEqual(sessions[0]!.startsAt);
  expect(row.endsAt).toEqual(new Date("2030-11-13T01:00:00Z"));
  expect(row.fechaEvento).toBe("2030-11-04");

  // The event's form, with other dates, changes its name but not its dates.
  const edit = await admin.client.post(
    `/admin/eventos/${event.id}/sesiones`,
    eventForm(
      "update",
      {
        nombreEvento: "El Camino del Ratón 2030",
        fechaEvento: "2031-01-01",
        horaEvento: "10:00",
        fechaFin: "2031-01-01",
        horaFin: "12:00",
      },
      [],
      undefined,
      { eventId: event.id },
    ),
  );
  expect(edit.status).toBe(302);
  const after = await eventRow(event.id);
  expect(after.nombreEvento).toBe("El Camino del Ratón 2030");
  expect(after.startsAt).toEqual(row.startsAt);
  expect(after.endsAt).toEqual(row.endsAt);
  expect((await sessionsOf(event.id)).length).toBe(7);

  // The management page lists them in its sessions section, and its data section shows the
  // form's dates read-only.
  const page = await organiser.client.get(`/admin/eventos/${event.id}/sesiones`);
  expect(page.text).toContain('id="sesiones-title"');
  const data = await organiser.client.get(`/admin/eventos/${event.id}`);
  expect(data.text).toContain("Este evento tiene varias sesiones");
  expect(page.text.match(/<li[^>]*>\s*<span class="session-when">/g)?.length).toBe(7);
});

test("a weekly rule keeps the wall-clock hour across a daylight-saving change (New York) and in La Paz", () => {
  const rule = {
    regla: "semanal",
    desde: "2030-03-02",
    semanas: "3",
    dias: ["6"],
    inicio: "19:00",
    duracion: "90",
  };
  // Daylight saving starts in New York on Sunday 10 March 2030: 19:00 is 00:00Z, then 23:00Z.
  expect(sessionsOfRule(rule, "America/New_York").map((s) => s.startsAt.toISOString())).toEqual([
    "2030-03-03T00:00:00.000Z",
    "2030-03-10T00:00:00.000Z",
    "2030-03-16T23:00:00.000Z",
  ]);
  // Santiago leaves daylight saving at the end of Saturday 6 April 2030 (UTC−3 → UTC−4).
  expect(
    sessionsOfRule({ ...rule, desde: "2030-03-30", semanas: "3" }, "America/Santiago").map((s) =>
      s.startsAt.toISOString(),
    ),
  ).toEqual(["2030-03-30T22:00:00.000Z", "2030-04-06T22:00:00.000Z", "2030-04-13T23:00:00.000Z"]);
  const laPaz = sessionsOfRule(rule, ZONE);
  expect(laPaz.map((s) => s.startsAt.toISOString())).toEqual([
    "2030-03-02T23:00:00.000Z",
    "2030-03-09T23:00:00.000Z",
    "2030-03-16T23:00:00.000Z",
  ]);
  // 90 minutes each, in real time.
  for (const s of laPaz) expect(s.endsAt.getTime() - s.startsAt.getTime()).toBe(90 * 60_000);
  // Two chosen days a week for two weeks.
  expect(sessionsOfRule({ ...rule, dias: ["2", "4"], semanas: "2" }, ZONE).length).toBe(4);
});

test("refusals: a clear Spanish message, 4xx, nothing changed", async () => {
  const event = await course("Curso con reglas");
  const other = await course("Otro curso");
  const [otherSession] = await sessionsOf(other.id);
  const refusals: Array<[Record<string, string | string[]>, number, string]> = [
    // Overlaps the first session (19:00–21:00 on the 4th).
    [
      { intent: "addSession", fecha: "2030-11-04", inicio: "20:00", fin: "22:00" },
      400,
      SESSION_MESSAGES.overlap,
    ],
    [
      { intent: "addSession", fecha: "2030-11-05", inicio: "20:00", fin: "20:00" },
      400,
      SESSION_MESSAGES.endBeforeStart,
    ],
    [
      { intent: "addSession", fecha: "2030-11-05", inicio: "21:00", fin: "19:00" },
      400,
      SESSION_MESSAGES.endBeforeStart,
    ],
    [
      { intent: "addSession", fecha: "2030-02-30", inicio: "19:00", fin: "21:00" },
      400,
      SESSION_MESSAGES.badDate,
    ],
    [
      { intent: "addSession", fecha: "2030-11-05", inicio: "25:00", fin: "21:00" },
      400,
      SESSION_MESSAGES.badTime,
    ],
    [
      {
        intent: "addSession",
        fecha: "2030-11-05",
        inicio: "19:00",
        fin: "21:00",
        enlace: "javascript:alert(1)",
      },
      400,
      SESSION_MESSAGES.badLink,
    ],
    // A rule whose first day overlaps the first session: said by its 'Desde'.
    [{ ...weekdays("2030-11-04", "2030-11-05"), inicio: "20:00" }, 400, SESSION_MESSAGES.overlap],
    // A Saturday and a Sunday: no weekday.
    [weekdays("2030-11-09", "2030-11-10"), 400, SESSION_MESSAGES.emptyRule],
    [weekdays("2030-11-12", "2030-11-05"), 400, SESSION_MESSAGES.untilBeforeFrom],
    // Every day for 29 weeks: 203 sessions, with the one there 204.
    [
      {
        intent: "generateSessions",
        regla: "semanal",
        desde: "2031-01-01",
        semanas: "29",
        dias: ["0", "1", "2", "3", "4", "5", "6"],
        inicio: "10:00",
        duracion: "60",
      },
      400,
      SESSION_MESSAGES.tooMany,
    ],
    [
      { ...weekdays("2031-01-01", "2031-01-10"), regla: "semanal", semanas: "2" },
      400,
      SESSION_MESSAGES.noDays,
    ],
    [{ ...weekdays("2031-01-01", "2031-01-10"), duracion: "0" }, 400, SESSION_MESSAGES.badDuration],
    [
      {
        intent: "updateSession",
        sessionId: randomUUID(),
        fecha: "2030-11-05",
        inicio: "19:00",
        fin: "21:00",
      },
      404,
      SESSION_MESSAGES.notFound,
    ],
    [
      {
        intent: "updateSession",
        sessionId: "no-es-un-id",
        fecha: "2030-11-05",
        inicio: "19:00",
        fin: "21:00",
      },
      404,
      SESSION_MESSAGES.notFound,
    ],
    // A session of another event.
    [{ intent: "cancelSession", sessionId: otherSession!.id }, 404, SESSION_MESSAGES.notFound],
    // The event's one session left.
    [{ intent: "cancelSession", sessionId: event.id }, 409, SESSION_MESSAGES.lastSession],
  ];
  for (const [fields, status, message] of refusals) {
    const before = await state();
    const reply = await post(organiser, event.id, fields);
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    expect(shownError(reply.text), JSON.stringify(fields)).toContain(message);
    expect(await state(), JSON.stringify(fields)).toEqual(before);
  }
  // A cancelled session cannot be changed or cancelled again.
  expect((await post(organiser, event.id, weekdays("2030-11-05", "2030-11-05"))).status).toBe(302);
  const [, second] = await sessionsOf(event.id);
  expect(
    (await post(organiser, event.id, { intent: "cancelSession", sessionId: second!.id })).status,
  ).toBe(302);
  const before = await state();
  const again = await post(organiser, event.id, { intent: "cancelSession", sessionId: second!.id });
  expect(again.status).toBe(409);
  expect(shownError(again.text)).toEqual([SESSION_MESSAGES.cancelled]);
  expect(await state()).toEqual(before);
});

test("exactly 200 sessions are accepted, the 201st refused", async () => {
  const event = await course("Curso largo");
  // 199 more besides the first: every day from 2031-01-01, 199 days.
  const generated = await generateSessions(
    server.db,
    admin.user,
    event.id,
    {
      regla: "semanal",
      desde: "2031-01-01",
      semanas: "29",
      dias: ["0", "1", "2", "3", "4", "5", "6"],
      inicio: "10:00",
      duracion: "60",
    },
    ZONE,
  ).catch((e: Error) => e);
  expect(generated).toBeInstanceOf(Error);
  const weeks = await generateSessions(
    server.db,
    admin.user,
    event.id,
    {
      regla: "laborables",
      desde: "2031-01-01",
      hasta: "2031-10-06",
      inicio: "10:00",
      duracion: "60",
    },
    ZONE,
  );
  expect(weeks).toBe(199);
  expect((await sessionsOf(event.id)).length).toBe(200);
  await expect(
    addSession(
      server.db,
      admin.user,
      event.id,
      { fecha: "2032-01-05", inicio: "10:00", fin: "11:00" },
      ZONE,
    ),
  ).rejects.toThrow(SESSION_MESSAGES.tooMany);
});

test("members and door staff may not change sessions; organisers of another event neither", async () => {
  const event = await course("Curso protegido");
  const outsider = await createMember(server, `otro-${randomUUID()}@example.com`, "Otto Otro");
  const mine = await course("Curso de Otto");
  await grantRole(server.db, admin.user, {
    userId: outsider.user.id,
    kind: "organiser",
    eventId: mine.id,
  });
  const fields = { fecha: "2030-11-05", inicio: "19:00", fin: "21:00" };
  for (const who of [member, door, outsider]) {
    await expect(addSession(server.db, who.user, event.id, fields, ZONE)).rejects.toBeInstanceOf(
      NotAllowedError,
    );
    const before = await state();
    const reply = await post(who, event.id, { intent: "addSession", ...fields });
    expect(reply.status).toBeGreaterThanOrEqual(300);
    expect(reply.status).not.toBe(302);
    expect(await state()).toEqual(before);
  }
  expect((await listSessions(server.db, event.id)).length).toBe(1);
  // Door staff are refused even within their door hours, when they may check people in.
  const local = zonedDateTime(new Date(Date.now() + 3_600_000), ZONE);
  const tonight = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Clase de esta noche",
    fechaEvento: local.date,
    horaEvento: local.time,
  });
  await grantRole(server.db, admin.user, {
    userId: door.user.id,
    kind: "door",
    eventId: tonight.id,
  });
  const grants = await loadGrants(server.db, door.user.id);
  expect(
    may({ ...door.user, grants }, "event.checkIn", (await eventScope(server.db, tonight.id))!),
  ).toBe(true);
  await expect(
    addSession(
      server.db,
      { ...door.user, grants },
      tonight.id,
      { ...fields, fecha: "2031-01-01" },
      ZONE,
    ),
  ).rejects.toBeInstanceOf(NotAllowedError);
  const before = await state();
  const reply = await post(door, tonight.id, {
    intent: "addSession",
    ...fields,
    fecha: "2031-01-01",
  });
  expect(reply.status).toBe(403);
  expect(await state()).toEqual(before);
});

test("a cancelled session stays listed as 'Cancelada', leaves the calendars, and participants and the waiting list get a mail", async () => {
  const event = await course("Curso con una clase cancelada");
  await joinEvent(server.db, member.user, event.id);
  expect(
    (await post(organiser, event.id, { ...weekdays("2030-11-05", "2030-11-07") })).status,
  ).toBe(302);
  const sessions = await sessionsOf(event.id);
  expect(sessions.length).toBe(4);
  const cancelled = sessions[2]!;
  const queued = (await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length;
  const reply = await post(organiser, event.id, {
    intent: "cancelSession",
    sessionId: cancelled.id,
  });
  expect(reply.status).toBe(302);
  const [row] = await server.db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.id, cancelled.id));
  expect(row!.cancelledAt).not.toBeNull();

  // The mail: to the participant, with the exact words and the session alone to remove.
  const mails = await server.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, "sessionCancelled"));
  const mine = mails.filter((m) => m.userId === member.user.id && m.eventId === event.id);
  expect(mine.length).toBe(1);
  expect((await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length).toBe(queued + 1);
  const mail = await getQueuedMail(server.db, mine[0]!.id);
  const composed = composeMail(mail!, mailSite(server.config), MAIL_DRAFTS);
  expect(composed.subject).toBe("Sesión cancelada: Curso con una clase cancelada");
  expect(String(composed.text)).toContain(
    "Los organizadores cancelaron una sesión de «Curso con una clase cancelada»: la del miércoles, 6 de noviembre de 2030, 7:00\u00a0p.\u00a0m. a 9:00\u00a0p.\u00a0m. (hora de Bolivia). Las demás sesiones siguen en pie.",
  );
  const ics = String((composed.attachments as { content: string }[])[0]!.content);
  expect(ics).toContain("METHOD:CANCEL");
  expect(ics.match(/BEGIN:VEVENT/g)?.length).toBe(1);
  expect(ics).toContain(`UID:${cancelled.id}@`);
  expect(ics).toContain("STATUS:CANCELLED");

  // The page lists the four, the cancelled one marked.
  await server.settled();
  const page = await member.client.get(`/detalles/${event.id}`);
  expect(page.text).toContain('id="event-sessions-title"');
  expect(page.text).toContain("Sesiones (<!-- -->3<!-- -->)");
  expect(page.text.match(/class="session-cancelled"/g)?.length).toBe(1);
  expect(page.text).toContain("Cancelada");

  // The event's calendar: one VEVENT per session not cancelled, each with its own UID.
  const calendar = await member.client.get(`/detalles/${event.id}/calendario.ics`);
  const live = sessions.filter((s) => s.id !== cancelled.id);
  expect(calendar.text.match(/BEGIN:VEVENT/g)?.length).toBe(3);
  for (const s of live) expect(calendar.text).toContain(`UID:${s.id}@`);
  expect(calendar.text).not.toContain(`UID:${cancelled.id}@`);
  expect(calendar.text).toContain("SUMMARY:Curso con una clase cancelada (sesión 2/3)");
  expect(calendar.text).toContain("DTSTART:20301107T230000Z");

  // The public feed and the member's private feed carry the same three.
  const feed = await member.client.get("/eventos.ics");
  for (const s of live) expect(feed.text).toContain(`UID:${s.id}@`);
  expect(feed.text).not.toContain(`UID:${cancelled.id}@`);
  const token = await renewCalendarToken(server.db, member.user);
  const mineFeed = await member.client.get(`/calendario/${token}/eventos.ics`);
  expect(mineFeed.text.match(/BEGIN:VEVENT/g)?.length).toBe(3);
  for (const s of live) expect(mineFeed.text).toContain(`UID:${s.id}@`);

  // The cards say how many sessions.
  const list = await member.client.get("/eventos");
  expect(list.text).toContain("3 sesiones");
});

test("moving a session moves the event's end; a move onto another session is refused", async () => {
  const event = await course("Curso que se mueve");
  await post(organiser, event.id, {
    intent: "addSession",
    fecha: "2030-11-06",
    inicio: "19:00",
    fin: "21:00",
  });
  const [, last] = await sessionsOf(event.id);
  const moved = await post(organiser, event.id, {
    intent: "updateSession",
    sessionId: last!.id,
    fecha: "2030-11-08",
    inicio: "18:00",
    fin: "20:00",
    lugar: "Aula 3",
    enlace: "https://meet.example.com/raton",
  });
  expect(moved.status).toBe(302);
  const [, after] = await sessionsOf(event.id);
  expect(after!.id).toBe(last!.id);
  expect(after!.place).toBe("Aula 3");
  expect((await eventRow(event.id)).endsAt).toEqual(new Date("2030-11-09T00:00:00Z"));
  const before = await state();
  const onto = await post(organiser, event.id, {
    intent: "updateSession",
    sessionId: last!.id,
    fecha: "2030-11-04",
    inicio: "20:30",
    fin: "21:30",
  });
  expect(onto.status).toBe(400);
  expect(shownError(onto.text)).toEqual([SESSION_MESSAGES.overlap]);
  expect(await state()).toEqual(before);
});

const DRIZZLE = path.join(PROJECT_ROOT, "drizzle");
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

test("the migration gives every existing event one session spanning it, with the event's id", async () => {
  const journal = JSON.parse(
    fs.readFileSync(path.join(DRIZZLE, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: { idx: number; tag: string }[];
  };
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-sesiones-"));
  folders.push(before);
  fs.mkdirSync(path.join(before, "meta"));
  // The migrations before sessions (and so before everything that builds on them).
  const entries = journal.entries.filter((e) => e.idx < 16);
  fs.writeFileSync(
    path.join(before, "meta", "_journal.json"),
    JSON.stringify({ ...journal, entries }, null, 2),
  );
  for (const e of entries)
    fs.copyFileSync(path.join(DRIZZLE, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
  const client = await PGlite.create();
  try {
    const db = drizzlePglite({ client });
    await migratePglite(db, { migrationsFolder: before });
    await db.execute(sql`insert into events (id, nombre_evento, ubicacion_evento, fecha_evento,
      hora_evento, starts_at, ends_at, imagen_enlace, descripcion, published_by_name) values
      ('11111111-1111-4111-8111-111111111111', 'Antiguo', 'La Paz', '2025-11-04', '19:00',
       '2025-11-04T23:00:00Z', '2025-11-07T01:00:00Z', '/a.png', 'x', 'Admin')`);
    await migratePglite(db, { migrationsFolder: DRIZZLE });
    const rows = rowsOf<{
      id: string;
      event_id: string;
      starts_at: string;
      ends_at: string;
      cancelled_at: string | null;
    }>(
      await db.execute(
        sql`select id, event_id, starts_at::text, ends_at::text, cancelled_at from event_sessions`,
      ),
    );
    expect(rows).toEqual([
      {
        id: "11111111-1111-4111-8111-111111111111",
        event_id: "11111111-1111-4111-8111-111111111111",
        starts_at: "2025-11-04 23:00:00+00",
        ends_at: "2025-11-07 01:00:00+00",
        cancelled_at: null,
      },
    ]);
  } finally {
    await client.close();
  }
}, 120_000);

test("a backup carries the sessions; an older one without the table restores with one session per event", async () => {
  const source = await createTestDatabase();
  const target = await createTestDatabase();
  const older = await createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-sesiones-copia-"));
  folders.push(dir);
  try {
    const [boss] = await source.db
      .insert(users)
      .values({
        issuer: "https://issuer.example",
        subject: randomUUID(),
        email: "jefa@example.com",
        isAdmin: true,
        displayName: "Jefa",
      })
      .returning();
    const single = await createTestEvent(source.db, boss!, { nombreEvento: "Una tarde" });
    const multi = await createTestEvent(source.db, boss!, {
      nombreEvento: "Curso",
      fechaEvento: "2030-11-04",
      horaEvento: "19:00",
    });
    await generateSessions(
      source.db,
      boss!,
      multi.id,
      {
        regla: "laborables",
        desde: "2030-11-05",
        hasta: "2030-11-08",
        inicio: "19:00",
        duracion: "120",
      },
      ZONE,
    );
    const expected = await source.db.select().from(eventSessions).orderBy(asc(eventSessions.id));
    expect(expected.length).toBe(6);

    const file = path.join(dir, "copia.gz");
    const header = await writeBackup(source.db, file, source.kind);
    expect(header.tables.find((t) => t.name === "event_sessions")?.rows).toBe(6);
    await restoreBackup(target.db, file);
    expect(await target.db.select().from(eventSessions).orderBy(asc(eventSessions.id))).toEqual(
      expected,
    );

    // The same backup as it was written before sessions: no table, no rows of it.
    const [headerLine, ...rest] = zlib
      .gunzipSync(fs.readFileSync(file))
      .toString()
      .trimEnd()
      .split("\n");
    const parsed = JSON.parse(headerLine!) as { tables: { name: string }[] };
    const withoutTable = {
      ...parsed,
      tables: parsed.tables.filter((t) => t.name !== "event_sessions"),
    };
    const rows = rest.filter((line) => !line.startsWith('{"table":"event_sessions"'));
    expect(rows.length).toBe(rest.length - 6);
    const old = path.join(dir, "anterior.gz");
    fs.writeFileSync(old, zlib.gzipSync([JSON.stringify(withoutTable), ...rows].join("\n")));
    await restoreBackup(older.db, old);
    const restored = await older.db
      .select()
      .from(eventSessions)
      .orderBy(asc(eventSessions.startsAt));
    const restoredEvents = await older.db.select().from(events);
    expect(restored.length).toBe(2);
    for (const e of restoredEvents) {
      const [s] = restored.filter((r) => r.eventId === e.id);
      expect(s!.id).toBe(e.id);
      expect([s!.startsAt, s!.endsAt]).toEqual([e.startsAt, e.endsAt]);
    }
    expect(restoredEvents.map((e) => e.id).sort()).toEqual([single.id, multi.id].sort());
  } finally {
    await source.close();
    await target.close();
    await older.close();
  }
}, 180_000);

test("cancelling a session that has already ended tells nobody by mail, and the organiser reads so", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Club que empezó hace tiempo",
    fechaEvento: "2020-03-07",
    horaEvento: "10:00",
  });
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await addSession(
    server.db,
    admin.user,
    event.id,
    { fecha: "2030-03-09", inicio: "10:00", fin: "12:00" },
    ZONE,
  );
  await joinEvent(server.db, member.user, event.id);
  const mailsBefore = (await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length;
  const reply = await post(organiser, event.id, { intent: "cancelSession", sessionId: event.id });
  expect(reply.status).toBe(302);
  const page = await landOn(organiser.client, reply);
  expect(page.text).toContain("Sesión cancelada. Como ya había terminado, no se avisó por correo.");
  expect((await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length).toBe(mailsBefore);
  // The event now runs from its one session left.
  expect((await eventRow(event.id)).startsAt).toEqual(new Date("2030-03-09T14:00:00Z"));
});

test("moving a session that is still to come tells participants by mail, with that session for their calendar; an unchanged save or a past session tells nobody", async () => {
  const event = await course("Curso con una clase movida");
  await joinEvent(server.db, member.user, event.id);
  expect(
    (await post(organiser, event.id, { ...weekdays("2030-11-05", "2030-11-07") })).status,
  ).toBe(302);
  const sessions = await sessionsOf(event.id);
  const target = sessions[1]!;
  const changedMails = async () =>
    (await server.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "changed"))).filter(
      (m) => m.eventId === event.id && m.userId === member.user.id,
    );
  expect(await changedMails()).toEqual([]);

  const moved = await post(organiser, event.id, {
    intent: "updateSession",
    sessionId: target.id,
    fecha: "2030-11-05",
    inicio: "17:00",
    fin: "18:30",
    lugar: "Aula 3",
  });
  expect(moved.status).toBe(302);
  const page = await landOn(organiser.client, moved);
  expect(page.text).toContain(
    "Sesión guardada: avisamos por correo del cambio a quienes participan y esperan una plaza.",
  );
  const [mail] = await changedMails();
  const composed = composeMail(
    (await getQueuedMail(server.db, mail!.id))!,
    mailSite(server.config),
    MAIL_DRAFTS,
  );
  expect(composed.subject).toBe("Cambió una sesión: Curso con una clase movida");
  const text = String(composed.text);
  expect(text).toContain(
    "Los organizadores cambiaron la fecha, la hora o el lugar de una sesión de «Curso con una clase movida». Así queda:",
  );
  expect(text).toContain("Lugar de la sesión: Aula 3");
  expect(text).toMatch(/Antes: martes, 5 de noviembre de 2030, 7:00\u00a0p.\u00a0m. a 9:00/);
  const ics = String((composed.attachments as { content: string }[])[0]!.content);
  expect(ics).toContain("METHOD:PUBLISH");
  expect(ics.match(/BEGIN:VEVENT/g)?.length).toBe(1);
  expect(ics).toContain(`UID:${target.id}@`);

  // Saved again as it is: nothing to tell.
  const same = await post(organiser, event.id, {
    intent: "updateSession",
    sessionId: target.id,
    fecha: "2030-11-05",
    inicio: "17:00",
    fin: "18:30",
    lugar: "Aula 3",
  });
  expect(same.status).toBe(302);
  expect((await landOn(organiser.client, same)).text).toContain("Sesión guardada.");
  expect(await changedMails()).toHaveLength(1);

  // A session that ended, moved to another time that has also passed: nobody is told.
  const old = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Club del año pasado",
    fechaEvento: "2020-03-07",
    horaEvento: "10:00",
  });
  const queued = (await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length;
  const { told } = await updateSession(
    server.db,
    admin.user,
    old.id,
    old.id,
    { fecha: "2020-03-08", inicio: "10:00", fin: "12:00" },
    ZONE,
  );
  expect(told).toBe(false);
  expect((await server.db.select({ id: mailOutbox.id }).from(mailOutbox)).length).toBe(queued);
});
