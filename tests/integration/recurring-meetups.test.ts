// Recurring meetups (issue 34, item 4; docs/decisions/045-recurring-meetups.md): a weekly club is
// an event with a rule of sessions and no certificate; its members join once, get a reminder
// before each session (to the real SMTP server on loopback, by the injectable clock) and can say
// they will miss one, over the event page's plain POST form, with every refusal in Spanish and
// nothing changed; organisers mark a particular past session by hand; the skips travel with
// backups and the member's data download and go with the account.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { certificateFor } from "~/attendance/certificate.server";
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import { setSessionAttendance } from "~/attendance/attendance.server";
import {
  auditLog,
  events,
  mailOutbox,
  participations,
  sessionAttendance,
  sessionSkips,
  type User,
} from "~/db/schema.server";
import { setCertificateShare } from "~/attendance/certificate-share.server";
import { joinEvent } from "~/events/participation.server";
import { SKIP_MESSAGES, skipSession } from "~/events/event-session-skips.server";
import { cancelSession, generateSessions } from "~/events/event-sessions.server";
import { composeMail, type MailSite } from "~/mail/compose.server";
import { getQueuedMail, queueDueReminders } from "~/mail/mail.server";
import { createMailWorker, smtpTransport } from "~/mail/worker.server";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { grantRole } from "~/members/roles.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import type { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { fourEveningCourse, joinedLongAgo, LA_PAZ, LONG_AGO, sessionsOf } from "../helpers/courses";
import { createTestDatabase } from "../helpers/database";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";
import { MAIL_DRAFTS } from "~/mail-drafts.server";

const HOUR = 60 * 60_000;
const SITE: MailSite = {
  origin: "https://ayllu.example",
  hostname: "ayllu.example",
  from: "Ayllu <eventos@ayllu.example>",
  timeZone: LA_PAZ,
};

type Person = { client: BrowserClient; user: User };
let server: TestServer;
let smtp: TestSmtp;
let admin: Person;
/** The server's clock: real time unless a test sets it. */
let clock: Date | null = null;

beforeAll(async () => {
  [server, smtp] = await Promise.all([
    startTestServer({ ADMIN_EMAILS: "jefa@example.com" }, { now: () => clock ?? new Date() }),
    startTestSmtp(),
  ]);
  admin = await createAdmin(server);
}, 120_000);
afterAll(async () => {
  await smtp?.close();
  await server?.close();
});
beforeEach(() => {
  clock = null;
  smtp.received.length = 0;
});

failOnConsoleError();

/**
 * 'Club de robótica': Saturdays 10:00–12:00 in La Paz for `weeks` weeks from `from` (a Saturday):
 * the event's own session, then the rule's from the next day on.
 */
async function club(from: string, weeks = 3) {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Club de robótica ${randomUUID().slice(0, 6)}`,
    fechaEvento: from,
    horaEvento: "10:00",
    fechaFin: from,
    horaFin: "12:00",
  });
  const sunday = new Date(Date.parse(`${from}T12:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
  await generateSessions(
    server.db,
    admin.user,
    event.id,
    {
      regla: "semanal",
      desde: sunday,
      semanas: String(weeks - 1),
      dias: ["6"],
      inicio: "10:00",
      duracion: "120",
    },
    LA_PAZ,
  );
  const sessions = await sessionsOf(server.db, event.id);
  expect(sessions).toHaveLength(weeks);
  expect(sessions[0]!.id).toBe(event.id);
  return { event, sessions };
}

function worker(now: Date) {
  return createMailWorker({
    drafts: MAIL_DRAFTS,
    db: server.db,
    site: SITE,
    transport: smtpTransport(smtp.url),
    reminderHours: 24,
    now: () => now,
  });
}

async function shareOf(eventId: string) {
  const [row] = await server.db
    .select({ share: events.certificateShare })
    .from(events)
    .where(eq(events.id, eventId));
  return row!.share;
}

async function skipsOf(eventId: string) {
  return server.db
    .select({ sessionId: sessionSkips.sessionId, userId: sessionSkips.userId })
    .from(sessionSkips)
    .where(eq(sessionSkips.eventId, eventId))
    .orderBy(asc(sessionSkips.sessionId));
}

/** The alert an action's refusal shows on the page. */
function alertOf(html: string): string | null {
  return /role="alertdialog"[\s\S]*?<p[^>]*>([^<]+)<\/p>/.exec(html)?.[1] ?? null;
}

test("a member says on the event page they will miss one session, and takes it back; the page shows it", async () => {
  const { event, sessions } = await club("2030-03-02");
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  clock = new Date("2030-02-20T12:00:00Z");

  const page = await ana.client.get(`/detalles/${event.id}`);
  expect(page.text).toContain("¿No podrás ir a alguna?");
  expect(page.text.match(/>No podré ir</g)).toHaveLength(3);

  const reply = await ana.client.post(`/detalles/${event.id}`, {
    intent: "skipSession",
    sessionId: sessions[1]!.id,
  });
  expect(reply.status).toBe(302);
  expect(reply.location).toContain("#event-sessions-title");
  expect(await skipsOf(event.id)).toEqual([{ sessionId: sessions[1]!.id, userId: ana.user.id }]);
  const after = await ana.client.get(reply.location!);
  expect(after.text).toContain("Avisaste que no irás a esa sesión");
  expect(after.text).toContain(">No irás<");
  expect(after.text.match(/>Sí iré</g)).toHaveLength(1);

  // Saying it twice keeps one row.
  await ana.client.post(`/detalles/${event.id}`, {
    intent: "skipSession",
    sessionId: sessions[1]!.id,
  });
  expect(await skipsOf(event.id)).toHaveLength(1);

  const back = await ana.client.post(`/detalles/${event.id}`, {
    intent: "unskipSession",
    sessionId: sessions[1]!.id,
  });
  expect(back.status).toBe(302);
  expect(await skipsOf(event.id)).toEqual([]);
  expect((await ana.client.get(back.location!)).text).toContain(
    "Listo: te esperamos en esa sesión.",
  );

  // A visitor and a member who does not take part see no such buttons.
  const other = await createMember(server, `o-${randomUUID()}@example.com`, "Otro");
  expect((await other.client.get(`/detalles/${event.id}`)).text).not.toContain("No podré ir");
});

test("every refusal of a skip says why in Spanish, answers 4xx and changes nothing", async () => {
  const { event, sessions } = await club("2030-04-06");
  const { event: other, sessions: otherSessions } = await club("2030-04-06");
  const single = await createTestEvent(server.db, admin.user, { fechaEvento: "2030-04-06" });
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  await joinEvent(server.db, ana.user, single.id, LONG_AGO);
  const outsider = await createMember(server, `x-${randomUUID()}@example.com`, "Xavier Fuera");
  await cancelSession(server.db, admin.user, event.id, sessions[2]!.id, LA_PAZ);
  // Between the first session's start and the second's.
  clock = new Date(sessions[0]!.startsAt.getTime() + HOUR);

  const cases: [Person, string, Record<string, string>, number, string | null][] = [
    [
      ana,
      event.id,
      { intent: "skipSession", sessionId: sessions[0]!.id },
      409,
      SKIP_MESSAGES.begun,
    ],
    [
      ana,
      event.id,
      { intent: "skipSession", sessionId: sessions[2]!.id },
      409,
      SKIP_MESSAGES.cancelled,
    ],
    [ana, single.id, { intent: "skipSession", sessionId: single.id }, 409, SKIP_MESSAGES.single],
    [
      outsider,
      event.id,
      { intent: "skipSession", sessionId: sessions[1]!.id },
      403,
      SKIP_MESSAGES.notParticipant,
    ],
    // Another event's session, an unknown one, a malformed one, none: not found.
    [ana, event.id, { intent: "skipSession", sessionId: otherSessions[1]!.id }, 404, null],
    [ana, event.id, { intent: "skipSession", sessionId: randomUUID() }, 404, null],
    [ana, event.id, { intent: "skipSession", sessionId: "1; drop table events" }, 404, null],
    [ana, event.id, { intent: "skipSession" }, 404, null],
    [ana, event.id, { intent: "unskipSession", sessionId: "javascript:alert(1)" }, 404, null],
    [ana, event.id, { intent: "skipSession", sessionId: "x".repeat(5000) }, 404, null],
  ];
  for (const [who, eventId, fields, status, message] of cases) {
    const reply = await who.client.post(`/detalles/${eventId}`, fields);
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    if (message) expect(alertOf(reply.text)).toBe(message);
    else expect(reply.text).toContain("Sesión no encontrada.");
  }
  expect(await skipsOf(event.id)).toEqual([]);
  expect(await skipsOf(other.id)).toEqual([]);

  // Someone already checked in at a session that has not begun (its door opens an hour before).
  const course = await fourEveningCourse(server.db, admin.user, "2030-05-06");
  const beto = await joinedLongAgo(server, course.event.id, "Beto Mamani");
  const s2 = course.sessions[1]!;
  clock = new Date(s2.startsAt.getTime() - 30 * 60_000);
  await setSessionAttendance(
    server.db,
    admin.user,
    course.event.id,
    beto.user.id,
    s2.id,
    true,
    LA_PAZ,
    clock,
  );
  const came = await beto.client.post(`/detalles/${course.event.id}`, {
    intent: "skipSession",
    sessionId: s2.id,
  });
  expect(came.status).toBe(409);
  expect(alertOf(came.text)).toBe(SKIP_MESSAGES.attended);
  expect(await skipsOf(course.event.id)).toEqual([]);

  // Without signing in: to the sign-in page, nothing written.
  const { BrowserClient } = await import("../helpers/browser-client");
  const visitor = new BrowserClient(server.url);
  const anonymous = await visitor.post(`/detalles/${event.id}`, {
    intent: "skipSession",
    sessionId: sessions[1]!.id,
  });
  expect(anonymous.status).toBe(302);
  expect(anonymous.location).toContain("/login");
  expect(await skipsOf(event.id)).toEqual([]);
});

test("a club reminds each member before each session, never of one they will miss, a cancelled one or one they joined too late for", async () => {
  const { event, sessions } = await club("2031-06-07", 3);
  const [s1, s2, s3] = sessions as [
    (typeof sessions)[0],
    (typeof sessions)[0],
    (typeof sessions)[0],
  ];
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  const beto = await joinedLongAgo(server, event.id, "Beto Mamani");
  await server.db.delete(mailOutbox);
  const before = (s: typeof s1, hours: number) => new Date(s.startsAt.getTime() - hours * HOUR);

  // Beto will miss the second Saturday.
  await skipSession(server.db, beto.user, event.id, s2.id, LONG_AGO);

  // 25 hours before the first: nothing yet. 23 hours before: one each, once, even from two workers.
  expect(await queueDueReminders(server.db, before(s1, 25), 24)).toBe(0);
  const reports = await Promise.all([
    worker(before(s1, 23)).runOnce(),
    worker(before(s1, 23)).runOnce(),
  ]);
  expect(reports[0]!.reminders + reports[1]!.reminders).toBe(2);
  const first = await smtp.waitFor(2);
  expect(first.map((m) => m.subject)).toEqual([
    `Recordatorio: ${event.nombreEvento}, sesión 1 de 3`,
    `Recordatorio: ${event.nombreEvento}, sesión 1 de 3`,
  ]);
  expect(first[0]!.text).toContain("pronto empieza la sesión 1 de 3");
  expect(first[0]!.text).toContain("sábado, 7 de junio de 2031");
  expect(first[0]!.text).toContain("avísalo desde la página del evento");
  // The first session has the event's id: its key is the one reminders had before sessions.
  const keys = (await server.db.select({ key: mailOutbox.dedupeKey }).from(mailOutbox)).map(
    (r) => r.key,
  );
  expect(keys).toContain(`reminder:${event.id}:${ana.user.id}:${s1.startsAt.getTime() / 1000}`);

  // The second: Ana only.
  smtp.received.length = 0;
  expect(await worker(before(s2, 2)).runOnce()).toMatchObject({ reminders: 1, sent: 1 });
  const [second] = await smtp.waitFor(1);
  expect(second!.subject).toBe(`Recordatorio: ${event.nombreEvento}, sesión 2 de 3`);
  expect(second!.to && !Array.isArray(second!.to) ? second!.to.value[0]!.address : null).toBe(
    ana.user.email,
  );

  // Ceci joins 10 hours before the third: her confirmation is enough. The third is then cancelled:
  // nobody is reminded of it.
  const ceci = await createMember(server, `c-${randomUUID()}@example.com`, "Ceci Condori");
  await joinEvent(server.db, ceci.user, event.id, before(s3, 10));
  await server.db
    .update(participations)
    .set({ joinedAt: before(s3, 10) })
    .where(eq(participations.userId, ceci.user.id));
  expect(await queueDueReminders(server.db, before(s3, 5), 24)).toBe(2);
  await server.db.delete(mailOutbox).where(eq(mailOutbox.kind, "reminder"));
  await cancelSession(server.db, admin.user, event.id, s3.id, LA_PAZ, before(s3, 48));
  await server.db.delete(mailOutbox);
  expect(await queueDueReminders(server.db, before(s3, 5), 24)).toBe(0);
});

test("a session's reminder is not sent once that session began; an event of one session reads as before", async () => {
  const { event, sessions } = await club("2031-07-05", 2);
  await joinedLongAgo(server, event.id, "Ana Quispe");
  await server.db.delete(mailOutbox);
  const s2 = sessions[1]!;
  expect(await queueDueReminders(server.db, new Date(s2.startsAt.getTime() - HOUR), 24)).toBe(1);
  // The server was down until after the second session began (the event itself is still on).
  expect(await worker(new Date(s2.startsAt.getTime() + 60_000)).runOnce()).toMatchObject({
    failed: 1,
    sent: 0,
  });
  const [row] = await server.db.select().from(mailOutbox);
  expect(row!.lastError).toContain("ya empezó");

  const single = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Charla de una tarde",
    fechaEvento: "2031-07-10",
  });
  await joinedLongAgo(server, single.id);
  await server.db.delete(mailOutbox);
  expect(await queueDueReminders(server.db, new Date(single.startsAt.getTime() - HOUR), 24)).toBe(
    1,
  );
  const [reminder] = await server.db.select({ id: mailOutbox.id }).from(mailOutbox);
  const queued = await getQueuedMail(server.db, reminder!.id);
  expect(composeMail(queued!, SITE, MAIL_DRAFTS).subject).toBe("Recordatorio: Charla de una tarde");
});

test("an event may give no certificate: organisers choose it, it is audited, nobody gets one, and it cannot be taken back after the end", async () => {
  const { event, sessions } = await fourEveningCourse(server.db, admin.user, "2024-06-03");
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  for (const s of sessions)
    await setSessionAttendance(
      server.db,
      admin.user,
      event.id,
      ana.user.id,
      s.id,
      true,
      LA_PAZ,
      new Date(),
    );
  const now = new Date();
  // Ended: turning certificates off now would withdraw those given.
  await expect(
    setCertificateShare(server.db, admin.user, event.id, { give: "no", share: "" }, now),
  ).rejects.toThrow("no se pueden retirar");
  expect((await certificateFor(server.db, ana.user, event.id, ana.user.id, now)).code).toBeTruthy();

  const { event: weekly } = await club("2031-08-02");
  const beto = await joinedLongAgo(server, weekly.id, "Beto Mamani");
  const form = (fields: Record<string, string>) =>
    admin.client.post(`/admin/eventos/${weekly.id}/certificado`, {
      intent: "certificateShare",
      ...fields,
    });
  expect((await form({ certificado: "quizás", porcentaje: "75" })).status).toBe(400);
  expect(await shareOf(weekly.id)).toBe(75);
  const saved = await form({ certificado: "no", porcentaje: "" });
  expect(saved.status).toBe(302);
  expect(await shareOf(weekly.id)).toBeNull();
  const [audit] = await server.db
    .select({ summary: auditLog.summary })
    .from(auditLog)
    .where(and(eq(auditLog.itemId, weekly.id), eq(auditLog.action, "event.certificateShare")));
  expect(audit!.summary).toContain("no entrega certificado");
  const page = await admin.client.get(`/admin/eventos/${weekly.id}/certificado`);
  expect(page.text).toContain('<input type="radio" name="certificado" checked="" value="no"/>');

  // After its sessions, with every one attended: no certificate, and the reason says so.
  const { sessions: weeklySessions } = { sessions: await sessionsOf(server.db, weekly.id) };
  const afterAll = new Date(weeklySessions.at(-1)!.endsAt.getTime() + HOUR);
  for (const s of weeklySessions)
    await setSessionAttendance(
      server.db,
      admin.user,
      weekly.id,
      beto.user.id,
      s.id,
      true,
      LA_PAZ,
      afterAll,
    );
  await expect(
    certificateFor(server.db, beto.user, weekly.id, beto.user.id, afterAll),
  ).rejects.toThrow(ATTENDANCE_MESSAGES.certificateNone);
  // A member may not change it.
  const member = await joinedLongAgo(server, weekly.id, "Ceci Condori");
  expect(
    (
      await member.client.post(`/admin/eventos/${weekly.id}/certificado`, {
        intent: "certificateShare",
        certificado: "si",
        porcentaje: "50",
      })
    ).status,
  ).toBe(403);
  expect(await shareOf(weekly.id)).toBeNull();
});

test("organisers mark a particular session by hand on the participants page, and remove it; refused outside the rules", async () => {
  const { event, sessions } = await fourEveningCourse(server.db, admin.user, "2030-09-02");
  const [s1, s2, s3] = sessions as [
    (typeof sessions)[0],
    (typeof sessions)[0],
    (typeof sessions)[0],
  ];
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  const door = await createMember(server, `door-${randomUUID()}@example.com`, "Pedro Puerta");
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  // During the third evening.
  clock = new Date(s3.startsAt.getTime() + HOUR);
  const post = (who: Person, fields: Record<string, string>) =>
    who.client.post(`/admin/eventos/${event.id}/participantes`, { userId: ana.user.id, ...fields });
  const attendance = async () =>
    (
      await server.db
        .select({ sessionId: sessionAttendance.sessionId, at: sessionAttendance.checkedInAt })
        .from(sessionAttendance)
        .where(eq(sessionAttendance.userId, ana.user.id))
        .orderBy(asc(sessionAttendance.checkedInAt))
    ).map((a) => [a.sessionId, a.at.toISOString()]);

  const page = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(page.text).toContain("Aún no empieza");
  expect(page.text).toContain(`Marcar presente de Ana Quispe en la Sesión 1`);

  // The second evening, after the fact: recorded at its start.
  expect((await post(admin, { intent: "checkInSession", sessionId: s2.id })).status).toBe(302);
  expect(await attendance()).toEqual([[s2.id, s2.startsAt.toISOString()]]);
  // The first: the participation keeps the earliest.
  await post(admin, { intent: "checkInSession", sessionId: s1.id });
  const [p] = await server.db
    .select({ at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.userId, ana.user.id), eq(participations.eventId, event.id)));
  expect(p!.at).toEqual(s1.startsAt);
  // Removing the first leaves the second as the first time she came.
  await post(admin, { intent: "undoCheckInSession", sessionId: s1.id });
  expect(await attendance()).toEqual([[s2.id, s2.startsAt.toISOString()]]);
  const [q] = await server.db
    .select({ at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.userId, ana.user.id), eq(participations.eventId, event.id)));
  expect(q!.at).toEqual(s2.startsAt);

  const refusals: [Person, Record<string, string>, number, string | null][] = [
    [admin, { intent: "checkInSession", sessionId: sessions[3]!.id }, 409, "La puerta abre"],
    [admin, { intent: "checkInSession", sessionId: randomUUID() }, 404, null],
    [admin, { intent: "checkInSession", sessionId: "<script>" }, 404, null],
    [admin, { intent: "checkInSession", sessionId: s1.id, userId: randomUUID() }, 404, null],
    [door, { intent: "checkInSession", sessionId: s1.id }, 403, null],
    [ana, { intent: "checkInSession", sessionId: s1.id }, 403, null],
  ];
  for (const [who, fields, status, text] of refusals) {
    const reply = await post(who, fields);
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    if (text) expect(reply.text).toContain(text);
  }
  await cancelSession(server.db, admin.user, event.id, s1.id, LA_PAZ, clock);
  const cancelled = await post(admin, { intent: "checkInSession", sessionId: s1.id });
  expect(cancelled.status).toBe(409);
  expect(await attendance()).toEqual([[s2.id, s2.startsAt.toISOString()]]);
});

test("skips show on the participants page and its CSV, travel with backups, the data download, and go with the account", async () => {
  const { event, sessions } = await club("2031-09-06");
  const ana = await joinedLongAgo(server, event.id, "Ana Quispe");
  const beto = await joinedLongAgo(server, event.id, "Beto Mamani");
  await skipSession(server.db, ana.user, event.id, sessions[2]!.id, LONG_AGO);
  await skipSession(server.db, beto.user, event.id, sessions[2]!.id, LONG_AGO);

  const page = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(page.text).toContain("2 avisaron que no vendrán");
  expect(page.text).toContain("avisó que no vendrá");
  const csv = await admin.client.get(`/admin/eventos/${event.id}/participantes.csv`);
  const anaLine = csv.text.split("\n").find((l) => l.startsWith('"Ana Quispe"'))!;
  expect(anaLine.trim().endsWith('"","","no irá"')).toBe(true);

  const data = await exportMemberData(server.db, ana.user);
  const mine = data!.participaciones.find((p) => p.eventId === event.id)!;
  expect(mine.sesionesQueNoIras).toEqual([
    expect.objectContaining({ sesionInicio: sessions[2]!.startsAt.toISOString() }),
  ]);

  // A backup carries them; a restore brings them back exactly.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-skips-"));
  const file = path.join(dir, "copia.jsonl.gz");
  const target = await createTestDatabase();
  try {
    await writeBackup(server.db, file, server.database.kind);
    await restoreBackup(target.db, file);
    const restored = await target.db
      .select({ sessionId: sessionSkips.sessionId, userId: sessionSkips.userId })
      .from(sessionSkips)
      .where(eq(sessionSkips.eventId, event.id));
    expect(restored).toHaveLength(2);
    expect(new Set(restored.map((r) => r.userId))).toEqual(new Set([ana.user.id, beto.user.id]));
  } finally {
    await target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await deleteAccount(server.db, ana.user);
  expect(await skipsOf(event.id)).toEqual([{ sessionId: sessions[2]!.id, userId: beto.user.id }]);
});
