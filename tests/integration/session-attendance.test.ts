// Attendance per session (docs/decisions/044-attendance-per-session.md): the door checks a pass
// into the session under way, at each edge of its window; the certificate goes by the share of
// sessions attended, exactly at the threshold included; check-ins recorded before the change
// become attendance (migration and older backups) and their certificates keep verifying; the
// member's data download carries their attendance and deleting the account removes it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { and, asc, eq, sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkIn, checkInToken, CheckInError } from "~/attendance/check-in.server";
import { certificateFor, findCertificate } from "~/attendance/certificate.server";
import { ATTENDANCE_MESSAGES, certificateShareNotReached } from "~/attendance/messages";
import type { Db } from "~/db/client.server";
import {
  events,
  eventSessions,
  participations,
  sessionAttendance,
  users,
  type User,
} from "~/db/schema.server";
import { addSession, cancelSession } from "~/events/event-sessions.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import { failOnConsoleError } from "../helpers/console";
import { createTestDatabase } from "../helpers/database";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";
import { BrowserClient } from "../helpers/browser-client";
import { fourEveningCourse, joinedLongAgo, LA_PAZ, LONG_AGO } from "../helpers/courses";

const ZONE = LA_PAZ;
const SECRET = TEST_SESSION_SECRET;
const MINUTE = 60_000;

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

const course = (monday: string, db: Db = server.db, boss: User = admin.user) =>
  fourEveningCourse(db, boss, monday);
const joined = (eventId: string, name?: string) => joinedLongAgo(server, eventId, name);

const scan = (eventId: string, userId: string, now: Date) =>
  checkIn(
    server.db,
    SECRET,
    admin.user,
    eventId,
    { token: checkInToken(SECRET, eventId, userId) },
    now,
    ZONE,
  );

async function attendanceOf(eventId: string, userId: string) {
  return server.db
    .select({ sessionId: sessionAttendance.sessionId, at: sessionAttendance.checkedInAt })
    .from(sessionAttendance)
    .where(and(eq(sessionAttendance.eventId, eventId), eq(sessionAttendance.userId, userId)))
    .orderBy(asc(sessionAttendance.checkedInAt));
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CheckInError);
  return { message: (error as CheckInError).message, status: (error as CheckInError).status };
}

test("the pass checks its holder into the session whose door is open: from the event's 3 hours before its start to its 6 hours after its end", async () => {
  const { event, sessions } = await course("2030-11-04");
  const [s1, s2, s3, s4] = sessions as [
    (typeof sessions)[0],
    (typeof sessions)[0],
    (typeof sessions)[0],
    (typeof sessions)[0],
  ];
  const before = (s: typeof s1, minutes: number) =>
    new Date(s.startsAt.getTime() - minutes * MINUTE);
  const people = await Promise.all(
    ["Ana", "Beto", "Ceci", "Dora", "Eloy", "Fidel"].map((n) => joined(event.id, n)),
  );
  const [ana, beto, ceci, dora, eloy, fidel] = people.map((p) => p.user.id) as string[];

  const closes = (s: typeof s1) => new Date(s.endsAt.getTime() + 6 * 60 * MINUTE);
  // 3 h 1 min before the first session: the door is closed, and says when it opens.
  expect(await refusal(scan(event.id, ana!, before(s1, 181)))).toEqual({
    status: 409,
    message: "La puerta abre a las 16:00.",
  });
  expect(await attendanceOf(event.id, ana!)).toEqual([]);
  // 3 h and 2 h 59 min before, and exactly 6 h after its end: the first session.
  for (const [who, at] of [
    [ana!, before(s1, 180)],
    [beto!, before(s1, 179)],
    [ceci!, closes(s1)],
  ] as const) {
    const result = await scan(event.id, who, at);
    expect(result.outcome).toBe("checkedIn");
    expect(result.sessionId).toBe(s1.id);
    expect(await attendanceOf(event.id, who)).toEqual([{ sessionId: s1.id, at }]);
  }
  // 1 ms after its door closed: the second's door is not open yet.
  expect(await refusal(scan(event.id, dora!, new Date(closes(s1).getTime() + 1)))).toEqual({
    status: 409,
    message: "La puerta cerró a las 03:00; vuelve a abrir a las 16:00.",
  });

  // A second scan in the same session: already present, with the first time.
  const again = await scan(event.id, ana!, s1.startsAt);
  expect(again.outcome).toBe("already");
  expect(again.checkedInAt).toEqual(before(s1, 180));
  // The next evening is a new attendance; the participation keeps the first time they came.
  const second = await scan(event.id, ana!, s2.startsAt);
  expect([second.outcome, second.sessionId]).toEqual(["checkedIn", s2.id]);
  expect((await attendanceOf(event.id, ana!)).map((a) => a.sessionId)).toEqual([s1.id, s2.id]);
  const [participation] = await server.db
    .select({ at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, ana!)));
  expect(participation!.at).toEqual(before(s1, 180));

  // A cancelled session has no door: the next one's opening is named instead.
  await cancelSession(server.db, admin.user, event.id, s3.id, ZONE, LONG_AGO);
  expect(await refusal(scan(event.id, eloy!, s3.startsAt))).toEqual({
    status: 409,
    message: "La puerta cerró a las 03:00; vuelve a abrir el jueves 7 de noviembre a las 16:00.",
  });
  // After the last session's door closed, it says so.
  expect(await refusal(scan(event.id, fidel!, new Date(closes(s4).getTime() + 1)))).toEqual({
    status: 409,
    message: "La puerta cerró a las 03:00.",
  });
  expect(await attendanceOf(event.id, fidel!)).toEqual([]);

  // Through the page's data route (the server's own clock, years before the course): refused
  // with the Spanish message naming the first session, and nothing recorded.
  const reply = await admin.client.post(`/admin/eventos/${event.id}/registro/datos`, {
    token: checkInToken(SECRET, event.id, fidel!),
  });
  expect(reply.status).toBe(409);
  expect(JSON.parse(reply.text).message).toBe(
    "La puerta abre el lunes 4 de noviembre a las 16:00.",
  );
  expect(await attendanceOf(event.id, fidel!)).toEqual([]);
}, 120_000);

test("when two sessions' windows overlap, the one that started first and has not ended takes the check-in", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Jornada doble ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2030-12-01",
    horaEvento: "10:00",
  });
  // 10:00–12:00 (the event's own), then 12:30–14:00: the second's door opens at 11:30.
  const late = await addSession(
    server.db,
    admin.user,
    event.id,
    { fecha: "2030-12-01", inicio: "12:30", fin: "14:00" },
    ZONE,
  );
  const [first] = await server.db
    .select()
    .from(eventSessions)
    .where(eq(eventSessions.id, event.id));
  const [a, b, c] = await Promise.all(["Ana", "Beto", "Ceci"].map((n) => joined(event.id, n)));
  expect(
    (await scan(event.id, a!.user.id, new Date(first!.endsAt.getTime() - 15 * MINUTE))).sessionId,
  ).toBe(first!.id);
  expect((await scan(event.id, b!.user.id, first!.endsAt)).sessionId).toBe(first!.id);
  expect((await scan(event.id, c!.user.id, new Date(first!.endsAt.getTime() + 1))).sessionId).toBe(
    late.id,
  );
}, 60_000);

/** Checks `userId` into the sessions numbered in `which` (0-based), each at its start. */
async function attend(
  eventId: string,
  sessions: { startsAt: Date }[],
  userId: string,
  which: number[],
) {
  for (const i of which) await scan(eventId, userId, sessions[i]!.startsAt);
}

test("the certificate goes to those who attended the event's share of sessions, exactly at the threshold included", async () => {
  const { event, sessions } = await course("2024-03-04");
  const after = new Date(sessions[3]!.endsAt.getTime() + 1);
  const three = await joined(event.id, "Ana Quispe");
  const two = await joined(event.id, "Beto Mamani");
  const none = await joined(event.id, "Ceci Condori");
  await attend(event.id, sessions, three.user.id, [0, 1, 3]);
  await attend(event.id, sessions, two.user.id, [0, 2]);

  // Default 75 %: 3 of 4 is exactly it.
  const mine = await certificateFor(server.db, three.user, event.id, three.user.id, after);
  expect(mine.attendance).toEqual({ attended: 3, total: 4, hours: 6 });
  const [code] = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, three.user.id)));
  expect((await findCertificate(server.db, code!.code, after))?.attendance).toEqual({
    attended: 3,
    total: 4,
    hours: 6,
  });
  // Before the last session has ended there is none.
  expect(await findCertificate(server.db, code!.code, sessions[3]!.startsAt)).toBeNull();
  // 2 of 4 is below it: refused with how many they attended and the share needed.
  await expect(certificateFor(server.db, two.user, event.id, two.user.id, after)).rejects.toThrow(
    certificateShareNotReached(2, 4, 75),
  );
  await expect(certificateFor(server.db, none.user, event.id, none.user.id, after)).rejects.toThrow(
    ATTENDANCE_MESSAGES.certificateNotCheckedIn,
  );
  const [twoCode] = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, two.user.id)));
  expect(await findCertificate(server.db, twoCode!.code, after)).toBeNull();

  // 50 %: 2 of 4 is exactly it. 76 %: 3 of 4 is no longer enough.
  await server.db.update(events).set({ certificateShare: 50 }).where(eq(events.id, event.id));
  expect(
    (await certificateFor(server.db, two.user, event.id, two.user.id, after)).attendance,
  ).toEqual({
    attended: 2,
    total: 4,
    hours: 4,
  });
  expect(await findCertificate(server.db, twoCode!.code, after)).not.toBeNull();
  await server.db.update(events).set({ certificateShare: 76 }).where(eq(events.id, event.id));
  await expect(
    certificateFor(server.db, three.user, event.id, three.user.id, after),
  ).rejects.toThrow(certificateShareNotReached(3, 4, 76));
  expect(await findCertificate(server.db, code!.code, after)).toBeNull();
}, 120_000);

const DRIZZLE = path.join(PROJECT_ROOT, "drizzle");
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
});

test("the migration turns a check-in recorded before it into attendance, and its certificate keeps verifying", async () => {
  const journal = JSON.parse(
    fs.readFileSync(path.join(DRIZZLE, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: { idx: number; tag: string }[];
  };
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-asistencia-"));
  folders.push(before);
  fs.mkdirSync(path.join(before, "meta"));
  const entries = journal.entries.filter((e) => e.idx < 17);
  fs.writeFileSync(
    path.join(before, "meta", "_journal.json"),
    JSON.stringify({ ...journal, entries }),
  );
  for (const e of entries)
    fs.copyFileSync(path.join(DRIZZLE, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));
  const client = await PGlite.create();
  try {
    const db = drizzlePglite({ client });
    await migratePglite(db, { migrationsFolder: before });
    const event = "22222222-2222-4222-8222-222222222222";
    const member = "33333333-3333-4333-8333-333333333333";
    await db.execute(sql`insert into users (id, issuer, subject, email, nombre_completo)
      values (${member}, 'https://issuer.example', 'antiguo', 'ana@example.com', 'Ana Quispe')`);
    await db.execute(sql`insert into events (id, nombre_evento, ubicacion_evento, fecha_evento,
      hora_evento, starts_at, ends_at, imagen_enlace, descripcion, published_by_name) values
      (${event}, 'Taller antiguo', 'La Paz', '2025-03-15', '10:00',
       '2025-03-15T14:00:00Z', '2025-03-15T16:00:00Z', '/a.png', 'x', 'Admin')`);
    await db.execute(sql`insert into event_sessions (id, event_id, starts_at, ends_at)
      values (${event}, ${event}, '2025-03-15T14:00:00Z', '2025-03-15T16:00:00Z')`);
    await db.execute(sql`insert into participations (user_id, event_id, joined_at, checked_in_at)
      values (${member}, ${event}, '2025-03-01T00:00:00Z', '2025-03-15T14:05:00Z')`);
    const code = (
      await db.execute<{ certificate_code: string }>(
        sql`select certificate_code from participations`,
      )
    ).rows[0]!.certificate_code;
    // Before the change, a certificate was valid for a check-in of an event that has ended.
    await migratePglite(db, { migrationsFolder: DRIZZLE });
    const rows = await db.select().from(sessionAttendance);
    expect(rows).toEqual([
      {
        sessionId: event,
        eventId: event,
        userId: member,
        checkedInAt: new Date("2025-03-15T14:05:00Z"),
        checkedInBy: null,
        checkedInByLink: null,
      },
    ]);
    const after = await findCertificate(
      db as unknown as Db,
      code,
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(after).toMatchObject({
      code,
      nombre: "Ana Quispe",
      attendance: { attended: 1, total: 1, hours: 2 },
      event: { id: event, nombreEvento: "Taller antiguo" },
    });
    const [share] = await db.select({ share: events.certificateShare }).from(events);
    expect(share!.share).toBe(75);
  } finally {
    await client.close();
  }
}, 120_000);

test("a backup carries attendance and the share; an older one without them restores its check-ins as attendance", async () => {
  const source = await createTestDatabase();
  const target = await createTestDatabase();
  const older = await createTestDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-asistencia-copia-"));
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
    const [ana] = await source.db
      .insert(users)
      .values({ issuer: "https://issuer.example", subject: randomUUID(), email: "ana@example.com" })
      .returning();
    const { event, sessions } = await course("2030-11-04", source.db, boss!);
    await source.db.update(events).set({ certificateShare: 50 }).where(eq(events.id, event.id));
    await source.db
      .insert(participations)
      .values({ userId: ana!.id, eventId: event.id, joinedAt: LONG_AGO });
    for (const s of [sessions[0]!, sessions[2]!])
      await checkIn(
        source.db,
        SECRET,
        boss!,
        event.id,
        { token: checkInToken(SECRET, event.id, ana!.id) },
        s.startsAt,
        ZONE,
      );
    const expected = await source.db
      .select()
      .from(sessionAttendance)
      .orderBy(asc(sessionAttendance.checkedInAt));
    expect(expected).toHaveLength(2);

    const file = path.join(dir, "copia.gz");
    const header = await writeBackup(source.db, file, source.kind);
    expect(header.tables.find((t) => t.name === "session_attendance")?.rows).toBe(2);
    await restoreBackup(target.db, file);
    expect(
      await target.db.select().from(sessionAttendance).orderBy(asc(sessionAttendance.checkedInAt)),
    ).toEqual(expected);
    const [restoredShare] = await target.db.select({ share: events.certificateShare }).from(events);
    expect(restoredShare!.share).toBe(50);

    // The same backup as it was written before this change: no table, no share column.
    const [headerLine, ...rest] = zlib
      .gunzipSync(fs.readFileSync(file))
      .toString()
      .trimEnd()
      .split("\n");
    const parsed = JSON.parse(headerLine!) as { tables: { name: string; columns: string[] }[] };
    const withoutThem = {
      ...parsed,
      tables: parsed.tables
        .filter((t) => t.name !== "session_attendance")
        .map((t) =>
          t.name === "events"
            ? { ...t, columns: t.columns.filter((c) => c !== "certificate_share") }
            : t,
        ),
    };
    const lines = rest
      .filter((line) => !line.startsWith('{"table":"session_attendance"'))
      .map((line) => {
        const entry = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
        if (entry.table === "events") delete entry.row!.certificate_share;
        return JSON.stringify(entry);
      });
    const old = path.join(dir, "anterior.gz");
    fs.writeFileSync(old, zlib.gzipSync([JSON.stringify(withoutThem), ...lines].join("\n")));
    await restoreBackup(older.db, old);
    // Her first check-in (the participation's) becomes attendance of the session it was made in.
    expect(
      (await older.db.select().from(sessionAttendance)).map((a) => [
        a.sessionId,
        a.userId,
        a.checkedInAt,
      ]),
    ).toEqual([[sessions[0]!.id, ana!.id, sessions[0]!.startsAt]]);
    const [defaultShare] = await older.db.select({ share: events.certificateShare }).from(events);
    expect(defaultShare!.share).toBe(75);
  } finally {
    await source.close();
    await target.close();
    await older.close();
  }
}, 180_000);

test("the member's data download lists their attendance per session, and deleting the account removes it", async () => {
  const { event, sessions } = await course("2030-11-04");
  const ana = await joined(event.id, "Ana Quispe");
  await attend(event.id, sessions, ana.user.id, [1, 2]);
  const data = await exportMemberData(server.db, ana.user);
  const mine = data.participaciones.find((p) => p.eventId === event.id)!;
  expect(mine.asistenciaPorSesion).toEqual(
    [sessions[1]!, sessions[2]!].map((s) => ({
      sesionInicio: s.startsAt.toISOString(),
      sesionFin: s.endsAt.toISOString(),
      checkedInAt: s.startsAt.toISOString(),
    })),
  );
  expect(await attendanceOf(event.id, ana.user.id)).toHaveLength(2);
  await deleteAccount(server.db, ana.user);
  expect(await attendanceOf(event.id, ana.user.id)).toEqual([]);
  // The sessions themselves stay: they belong to the event.
  expect(
    await server.db.select().from(eventSessions).where(eq(eventSessions.eventId, event.id)),
  ).toHaveLength(4);
}, 60_000);

test("participants page, CSV, profile, event page and certificate page show attendance per session", async () => {
  const { event, sessions } = await course("2024-03-11");
  const ana = await joined(event.id, "Ana Quispe");
  const beto = await joined(event.id, "Beto Mamani");
  await attend(event.id, sessions, ana.user.id, [0, 1, 3]);
  await attend(event.id, sessions, beto.user.id, [1, 2]);

  const page = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(page.status).toBe(200);
  expect(page.text).toContain("Asistencia por sesión");
  expect(page.text).toContain("3/4 sesiones");
  expect(page.text).toContain("2/4 sesiones");
  // Session 2 was attended by both; session 3 by Beto alone.
  expect(page.text).toMatch(/Sesión 2<\/strong>.*?2 de 2/s);
  expect(page.text).toMatch(/Sesión 3<\/strong>.*?1 de 2/s);
  // Only Ana reached the 75 %: hers is the one certificate on the list.
  expect(page.text).toContain(`Descargar el certificado de Ana Quispe`);
  expect(page.text).not.toContain(`Descargar el certificado de Beto Mamani`);

  const csv = await admin.client.get(`/admin/eventos/${event.id}/participantes.csv`);
  const lines = csv.text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  const quoted = (cells: string[]) => cells.map((c) => `"${c}"`).join(",");
  expect(lines[0]).toBe(
    quoted([
      "Nombre",
      "Correo electrónico",
      "Ciudad",
      "Habilidades",
      "Inscripción",
      "Asistencia",
      "2024-03-11 19:00",
      "2024-03-12 19:00",
      "2024-03-13 19:00",
      "2024-03-14 19:00",
    ]),
  );
  expect(
    lines.find((l) => l.startsWith('"Ana Quispe"'))!.endsWith(quoted(["sí", "sí", "", "sí"])),
  ).toBe(true);
  expect(
    lines.find((l) => l.startsWith('"Beto Mamani"'))!.endsWith(quoted(["", "sí", "sí", ""])),
  ).toBe(true);

  const profile = await ana.client.get("/profile");
  expect(profile.text).toContain("Asististe a 3 de 4 sesiones");
  const detail = await beto.client.get(`/detalles/${event.id}`);
  expect(detail.text).toContain(
    "Asististe a 2 de 4 sesiones. El certificado es para quienes asistieron al menos al 75 % de las sesiones.",
  );
  expect(detail.text).not.toContain("Descargar certificado");

  const [code] = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, ana.user.id)));
  const visitor = new BrowserClient(server.url);
  const formatted = code!.code.match(/.{4}/g)!.join("-");
  const check = await visitor.get(`/certificados/${formatted}`);
  expect(check.status).toBe(200);
  expect(check.text).toContain("Asistió a 3 de 4 sesiones (6 horas)");
  // Who gets one: the course's share of sessions.
  expect(check.text).toContain(
    "Ayllu emite este certificado a quien asistió al menos al 75 % de las sesiones, registradas en la entrada.",
  );
  // Its date is the course's days, not its first day alone.
  expect(check.text).toMatch(/<time[^>]*>Del \d+ (de \w+ )?al \d+ de \w+ de \d{4}<\/time>/);
}, 120_000);

test("an organiser sets the share of sessions for the certificate; bad values and other members are refused", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Curso corto ${randomUUID().slice(0, 6)}`,
  });
  const share = async () =>
    (
      await server.db
        .select({ s: events.certificateShare })
        .from(events)
        .where(eq(events.id, event.id))
    )[0]!.s;
  expect(await share()).toBe(75);
  const path = `/admin/eventos/${event.id}/certificado`;
  for (const bad of ["0", "101", "abc", "", "50.5", "-3"]) {
    const reply = await admin.client.post(path, { intent: "certificateShare", porcentaje: bad });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain(
      "El porcentaje de sesiones debe ser un número entero entre 1 y 100.",
    );
  }
  expect(await share()).toBe(75);
  const member = await createMember(server);
  const refused = await member.client.post(path, { intent: "certificateShare", porcentaje: "10" });
  expect(refused.status).not.toBe(200);
  expect(refused.status).not.toBe(302);
  expect(await share()).toBe(75);
  const saved = await admin.client.post(path, { intent: "certificateShare", porcentaje: "100" });
  expect(saved.status).toBe(302);
  expect(await share()).toBe(100);
  const again = await admin.client.get(path);
  expect(again.text).toMatch(/name="porcentaje"[^>]*value="100"|value="100"[^>]*name="porcentaje"/);
}, 60_000);
