// Events have an end (issue 28, decision 030): the three states around both instants on both
// databases, with the clock passed in; the end in the admin's form (bad input refused by the end
// field); the default end for the import, for older backups and for events of before the change;
// the real DTEND in every calendar.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { setCheckedIn } from "~/attendance/attendance.server";
import { certificateFor, findCertificate } from "~/attendance/certificate.server";
import { openEmbedded, type Database, type Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { events, mailOutbox, users, type User } from "~/db/schema.server";
import { createEvent } from "~/events/event-commands.server";
import { eventState, listEventsPage, listUpcomingEvents } from "~/events/event.server";
import { EventEndedError, joinEvent, leaveEvent } from "~/events/participation.server";
import { EventSchema } from "~/events/schemas";
import { composeMail, mailSite } from "~/mail/compose.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { getQueuedMail } from "~/mail/mail.server";
import { renewCalendarToken } from "~/events/calendar.server";
import { MESSAGES } from "~/messages";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import { importFirebase } from "#server/import/import.server";
import { readExportFiles } from "#server/import/read-export.server";
import { formatReport } from "#server/import/report.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { copyEmbeddedTemplate, createTestDatabase, usingPostgres } from "../helpers/database";
import {
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  eventFieldError,
  eventForm,
  snapshot,
  VALID_EVENT,
} from "../helpers/events";
import { FIXTURE_FILES } from "../helpers/firebase";
import { startTestServer, type TestServer } from "../helpers/server";

const TZ = "America/La_Paz";
const HOUR = 60 * 60 * 1000;
// 19:00–21:00 in La Paz on 6 December 2025: 23:00 to 01:00 UTC.
const STARTS = new Date("2025-12-06T23:00:00.000Z");
const ENDS = new Date("2025-12-07T01:00:00.000Z");
const AROUND = {
  beforeStart: new Date(STARTS.getTime() - 1),
  atStart: STARTS,
  beforeEnd: new Date(ENDS.getTime() - 1),
  atEnd: ENDS,
} as const;
const EXPECTED = {
  beforeStart: "upcoming",
  atStart: "ongoing",
  beforeEnd: "ongoing",
  atEnd: "ended",
} as const;

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-fin-"));
  dirs.push(dir);
  return dir;
}

const opened: Database[] = [];
afterAll(async () => {
  while (opened.length) await opened.pop()!.close();
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

async function insertUser(db: Db, fields: Partial<typeof users.$inferInsert> = {}): Promise<User> {
  const id = randomUUID();
  const [user] = await db
    .insert(users)
    .values({
      issuer: "https://issuer.example",
      subject: id,
      email: `${id}@example.com`,
      displayName: "Miembro",
      nombreCompleto: "Miembro Presente",
      ...fields,
    })
    .returning();
  return user!;
}

const workshop = (overrides: Record<string, string> = {}) =>
  EventSchema.parse({
    ...VALID_EVENT,
    nombreEvento: `Taller ${randomUUID()}`,
    fechaEvento: "2025-12-06",
    horaEvento: "19:00",
    fechaFin: "2025-12-06",
    horaFin: "21:00",
    ...overrides,
  });

const databases: Array<[string, () => Promise<Database>]> = [
  ["embedded", () => openEmbedded(copyEmbeddedTemplate(path.join(tempDir(), "datos")))],
];
if (usingPostgres) databases.push(["PostgreSQL", () => createTestDatabase()]);

describe.each(databases)("on the %s database", (_name, open) => {
  let database: Database;
  let admin: User;
  beforeAll(async () => {
    database = await open();
    opened.push(database);
    admin = await insertUser(database.db, { isAdmin: true, email: "jefa@example.com" });
  });

  test("the event's state, the lists, joins and certificates change at its start and at its end, never between", async () => {
    const { db } = database;
    const event = await createEvent(db, admin, workshop(), TZ);
    expect(event.startsAt.toISOString()).toBe(STARTS.toISOString());
    expect(event.endsAt.toISOString()).toBe(ENDS.toISOString());
    const present = await insertUser(db);
    await joinEvent(db, present, event.id, new Date(STARTS.getTime() - HOUR));
    await setCheckedIn(db, admin, event.id, present.id, true, STARTS);
    const certificate = (await certificateFor(db, present, event.id, present.id, ENDS)).code;

    for (const [key, at] of Object.entries(AROUND) as [keyof typeof AROUND, Date][]) {
      const state = EXPECTED[key];
      expect(eventState(event, at), key).toBe(state);
      // The lists: upcoming and ongoing events are "upcoming"; ended ones are past.
      const page = await listEventsPage(
        db,
        { pageSize: 1000, upcomingOffset: 0, pastOffset: 0 },
        at,
      );
      const inUpcoming = page.upcoming.some((e) => e.id === event.id);
      const inPast = page.past.some((e) => e.id === event.id);
      expect([key, inUpcoming, inPast]).toEqual([key, state !== "ended", state === "ended"]);
      const home = await listUpcomingEvents(db, 1000, at);
      expect(
        home.some((e) => e.id === event.id),
        key,
      ).toBe(state !== "ended");
      // Joining: open until the end, then the specification's message.
      const member = await insertUser(db);
      const joined = await joinEvent(db, member, event.id, at).then(
        (outcome) => outcome,
        (error: unknown) => (error instanceof EventEndedError ? error.message : error),
      );
      expect(joined, key).toBe(state === "ended" ? MESSAGES.eventEnded : "joined");
      // Certificates: only from the end on, never while the event is in progress.
      const mine = await certificateFor(db, present, event.id, present.id, at).then(
        (c) => c.code,
        () => null,
      );
      expect(mine, key).toBe(state === "ended" ? certificate : null);
      expect((await findCertificate(db, certificate, at))?.code ?? null, key).toBe(
        state === "ended" ? certificate : null,
      );
    }
  });

  test("members leave until the end, unless they were checked in at the door", async () => {
    const { db } = database;
    const event = await createEvent(db, admin, workshop(), TZ);
    const [leaves, staysIn, late] = [
      await insertUser(db),
      await insertUser(db),
      await insertUser(db),
    ];
    for (const member of [leaves, staysIn, late])
      await joinEvent(db, member, event.id, new Date(STARTS.getTime() - HOUR));
    await setCheckedIn(db, admin, event.id, staysIn.id, true, STARTS);
    const count = async () =>
      rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from participations where event_id = ${event.id}::uuid`,
        ),
      )[0]!.n;

    await leaveEvent(db, leaves, event.id, AROUND.beforeEnd);
    await expect(leaveEvent(db, staysIn, event.id, AROUND.atStart)).rejects.toThrow(
      MESSAGES.checkedInLeave,
    );
    await expect(leaveEvent(db, late, event.id, AROUND.atEnd)).rejects.toThrow(
      MESSAGES.eventEndedLeave,
    );
    expect(await count()).toBe(2);
  });

  test("a restored backup made before events had an end gives each event its start + 2 h", async () => {
    const source = await createTestDatabase();
    opened.push(source);
    await importFirebase(source.db, await readExportFiles(FIXTURE_FILES), { timeZone: TZ });
    const imported = await source.db.select().from(events);
    expect(imported.length).toBeGreaterThan(0);
    // One event whose end an admin moved: the older backup cannot know it.
    await source.db
      .update(events)
      .set({ endsAt: sql`${events.startsAt} + interval '5 hours'` })
      .where(eq(events.id, imported[0]!.id));
    const current = path.join(tempDir(), "actual.gz");
    await writeBackup(source.db, current, source.kind);
    const [headerLine, ...rest] = zlib
      .gunzipSync(fs.readFileSync(current))
      .toString()
      .trimEnd()
      .split("\n");
    const header = JSON.parse(headerLine!) as { tables: { name: string; columns: string[] }[] };
    const eventsTable = header.tables.find((t) => t.name === "events")!;
    expect(eventsTable.columns).toContain("ends_at");
    eventsTable.columns = eventsTable.columns.filter((c) => c !== "ends_at");
    // Nor had it sessions (decision 043), which came later.
    header.tables = header.tables.filter((t) => t.name !== "event_sessions");
    const lines = rest.flatMap((line) => {
      const entry = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
      if (entry.table === "event_sessions") return [];
      if (entry.table !== "events") return [line];
      delete entry.row!.ends_at;
      return [JSON.stringify(entry)];
    });
    expect(lines.join("\n")).not.toContain('"ends_at"');
    const older = path.join(path.dirname(current), "anterior.gz");
    fs.writeFileSync(older, zlib.gzipSync([JSON.stringify(header), ...lines].join("\n")));

    const counts = await restoreBackup(database.db, older, { force: true });
    expect(counts.events).toBe(imported.length);
    const restored = await database.db.select().from(events);
    expect(restored.length).toBe(imported.length);
    for (const e of restored) expect(e.endsAt.getTime() - e.startsAt.getTime()).toBe(2 * HOUR);
    admin = await insertUser(database.db, { isAdmin: true, email: `jefa-${randomUUID()}@x.org` });
  });
});

test("the import gives every event its start + 2 h, says how many in its report, and keeps an end set here while the start stays", async () => {
  const database = await createTestDatabase();
  opened.push(database);
  const data = await readExportFiles(FIXTURE_FILES);
  const report = await importFirebase(database.db, data, { timeZone: TZ });
  const imported = await database.db.select().from(events);
  expect(imported.length).toBeGreaterThan(0);
  for (const e of imported) expect(e.endsAt.getTime() - e.startsAt.getTime()).toBe(2 * HOUR);
  expect(report.defaultEnds).toBe(imported.length);
  expect(formatReport(report).join("\n")).toContain(
    `Eventos con el fin por defecto (inicio + 2 horas; la exportación no tiene fin): ${imported.length}.`,
  );

  const moved = new Date(imported[0]!.startsAt.getTime() + 6 * HOUR);
  await database.db.update(events).set({ endsAt: moved }).where(eq(events.id, imported[0]!.id));
  const again = await importFirebase(database.db, await readExportFiles(FIXTURE_FILES), {
    timeZone: TZ,
  });
  expect(again.defaultEnds).toBe(0);
  expect(formatReport(again).join("\n")).not.toContain("fin por defecto");
  const [kept] = await database.db.select().from(events).where(eq(events.id, imported[0]!.id));
  expect(kept!.endsAt.toISOString()).toBe(moved.toISOString());
});

test("the migration gives the events published before it their start + 2 h", async () => {
  const client = new PGlite();
  try {
    const folder = path.join(PROJECT_ROOT, "drizzle");
    const files = fs
      .readdirSync(folder)
      .filter((f) => f.endsWith(".sql"))
      .sort();
    const run = async (file: string) => {
      for (const statement of fs
        .readFileSync(path.join(folder, file), "utf8")
        .split("--> statement-breakpoint"))
        if (statement.trim()) await client.exec(statement);
    };
    const endMigration = files.findIndex((f) => f.startsWith("0010_event_end"));
    expect(endMigration).toBeGreaterThan(0);
    for (const file of files.slice(0, endMigration)) await run(file);
    await client.exec(`insert into events (nombre_evento, ubicacion_evento, fecha_evento,
      hora_evento, starts_at, imagen_enlace, descripcion, published_by_name)
      values ('Antiguo', 'Bolivia, La Paz', '2024-03-15', '10:00', '2024-03-15T14:00:00Z',
        '/demo/vision.svg', 'Texto', 'Admin')`);
    for (const file of files.slice(endMigration)) await run(file);
    const { rows } = await client.query<{ ends: string }>(
      `select to_char(ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as ends from events`,
    );
    expect(rows).toEqual([{ ends: "2024-03-15T16:00" }]);
    await expect(
      client.exec(`update events set ends_at = starts_at - interval '1 minute'`),
    ).rejects.toThrow(/events_ends_after_start_check/);
  } finally {
    await client.close();
  }
}, 60_000);

// ——— Over HTTP: the pages, the form, the calendars ———

describe("the site", () => {
  let server: TestServer;
  let admin: { client: BrowserClient; user: User };
  let now = new Date();
  beforeAll(async () => {
    server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" }, { now: () => now });
    admin = await createAdmin(server);
  });
  afterAll(() => server?.close());
  afterEach(() => {
    now = new Date();
  });
  failOnConsoleError();

  test("the event page, its card and the admin's row read 'En curso' between start and end, 'Finalizado' after; the calendar link goes, the certificate comes", async () => {
    const name = `Curso ${randomUUID()}`;
    const event = await createTestEvent(server.db, admin.user, {
      nombreEvento: name,
      fechaEvento: "2025-12-06",
      horaEvento: "19:00",
      fechaFin: "2025-12-06",
      horaFin: "21:00",
    });
    const member = await createMember(server);
    await joinEvent(server.db, member.user, event.id, new Date(STARTS.getTime() - HOUR));
    await setCheckedIn(server.db, admin.user, event.id, member.user.id, true, STARTS);
    const visitor = new BrowserClient(server.url);
    const detail = `/detalles/${event.id}`;
    const cardOf = (html: string) => {
      const at = html.indexOf(`href="${detail}"`);
      return at < 0 ? null : html.slice(at, html.indexOf("</ul>", at));
    };
    const rowOf = (html: string) => {
      const at = html.indexOf(`>${name}</a>`);
      return html.slice(at, html.indexOf("</li>", at));
    };

    for (const [key, at] of Object.entries(AROUND) as [keyof typeof AROUND, Date][]) {
      now = at;
      const state = EXPECTED[key];
      const page = (await visitor.get(detail)).text;
      const mine = (await member.client.get(detail)).text;
      const list = (await visitor.get("/eventos")).text;
      const panel = (await admin.client.get("/admin")).text;
      expect(page.includes("En curso"), key).toBe(state === "ongoing");
      expect(page.includes('<span class="badge">Finalizado</span>'), key).toBe(state === "ended");
      expect(page.includes("Evento Finalizado"), key).toBe(state === "ended");
      expect(page.includes("Añadir al calendario"), key).toBe(state !== "ended");
      expect(page).toContain(
        "sábado, 6 de diciembre de 2025, 7:00\u00a0p.\u00a0m. a 9:00\u00a0p.\u00a0m.",
      );
      expect(mine.includes("Descargar certificado"), key).toBe(state === "ended");
      // A member checked in at the door has nothing to leave with.
      expect(mine.includes('value="leave"'), key).toBe(false);
      expect(mine.includes("Asistencia registrada"), key).toBe(state !== "ended");
      const card = cardOf(list);
      expect(card, key).not.toBeNull();
      expect(card!.includes('<li class="badge badge-live">En curso</li>'), key).toBe(
        state === "ongoing",
      );
      expect(card!.includes('<li class="badge">Finalizado</li>'), key).toBe(state === "ended");
      const row = rowOf(panel);
      expect(row.includes("En curso"), key).toBe(state === "ongoing");
      expect(row.includes("Finalizado"), key).toBe(state === "ended");
    }

    // Joining in progress works through the page; after the end, the specification's message.
    now = AROUND.atStart;
    const late = await createMember(server);
    expect((await late.client.post(detail, { intent: "join" })).status).toBe(302);
    now = AROUND.atEnd;
    const later = await createMember(server);
    const refused = await later.client.post(detail, { intent: "join" });
    expect(refused.status).toBe(409);
    expect(alertsIn(refused.text)).toEqual([MESSAGES.eventEnded]);
  });

  test("the end is asked for in the form: blank is start + 2 h, an explicit end is kept, and the edit form shows it", async () => {
    const name = `Con fin ${randomUUID()}`;
    const blank = await admin.client.post("/admin", eventForm("publish", { nombreEvento: name }));
    expect(blank.status).toBe(302);
    const [withDefault] = await server.db
      .select()
      .from(events)
      .where(eq(events.nombreEvento, name));
    expect(withDefault!.endsAt.getTime() - withDefault!.startsAt.getTime()).toBe(2 * HOUR);

    const course = `Curso de cuatro días ${randomUUID()}`;
    const fourDays = await admin.client.post(
      "/admin",
      eventForm("publish", {
        nombreEvento: course,
        fechaEvento: "2030-11-04",
        horaEvento: "19:00",
        fechaFin: "2030-11-07",
        horaFin: "21:30",
      }),
    );
    expect(fourDays.status).toBe(302);
    const [saved] = await server.db.select().from(events).where(eq(events.nombreEvento, course));
    expect(saved!.endsAt.toISOString()).toBe("2030-11-08T01:30:00.000Z");

    const edit = await admin.client.get(`/admin?editar=${saved!.id}`);
    expect(edit.text).toMatch(/id="evento-fechaFin"[^>]*value="2030-11-07"/);
    expect(edit.text).toMatch(/id="evento-horaFin"[^>]*value="21:30"/);
    const page = await admin.client.get(`/detalles/${saved!.id}`);
    expect(page.text).toContain(" al jueves, 7 de noviembre de 2030, 9:30");
  });

  test("an end before the start, a malformed end, or half an end is refused by the end field in Spanish, and nothing changes", async () => {
    const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2030-12-06" });
    const cases: Array<[Record<string, string>, string, string]> = [
      [
        { fechaFin: "2030-12-06", horaFin: "18:59" },
        "horaFin",
        "El fin del evento debe ser posterior a su inicio.",
      ],
      [
        { fechaFin: "2030-12-06", horaFin: "19:00" },
        "horaFin",
        "El fin del evento debe ser posterior a su inicio.",
      ],
      [
        { fechaFin: "2030-12-05", horaFin: "23:00" },
        "fechaFin",
        "El fin del evento debe ser posterior a su inicio.",
      ],
      [
        { fechaFin: "2030-12-06", horaFin: "25:00" },
        "horaFin",
        "La hora de fin no es válida (usa HH:MM, de 00:00 a 23:59).",
      ],
      [
        { fechaFin: "2030-12-06", horaFin: "9pm" },
        "horaFin",
        "La hora de fin no es válida (usa HH:MM, de 00:00 a 23:59).",
      ],
      [
        { fechaFin: "2030-02-30", horaFin: "21:00" },
        "fechaFin",
        "La fecha de fin no es una fecha válida.",
      ],
      [{ fechaFin: "2030-12-06" }, "horaFin", "Escribe la hora de fin."],
      [{ horaFin: "21:00" }, "fechaFin", "Escribe la fecha de fin."],
    ];
    const before = await snapshot(server.db);
    for (const [end, field, message] of cases) {
      for (const [intent, extra] of [
        ["publish", {}],
        ["update", { eventId: event.id }],
      ] as const) {
        const reply = await admin.client.post(
          "/admin",
          eventForm(
            intent,
            { fechaEvento: "2030-12-06", horaEvento: "19:00", ...end },
            [],
            undefined,
            extra,
          ),
        );
        expect(reply.status, JSON.stringify(end)).toBe(400);
        expect(eventFieldError(reply.text, field), JSON.stringify(end)).toBe(message);
      }
    }
    // The end lists twice, or as a file: the form's usual refusal, never a 500.
    const twice = eventForm("publish", { fechaFin: "2030-12-06", horaFin: "21:00" });
    twice.append("horaFin", "22:00");
    expect((await admin.client.post("/admin", twice)).status).toBe(400);
    expect(await snapshot(server.db)).toEqual(before);
  });

  test("every calendar carries the real DTEND: the event's .ics, /eventos.ics, the member's feed and the mail's attachment", async () => {
    const event = await createTestEvent(server.db, admin.user, {
      fechaEvento: "2030-11-04",
      horaEvento: "19:00",
      fechaFin: "2030-11-07",
      horaFin: "21:00",
    });
    const dtend = "DTEND:20301108T010000Z";
    const own = await new BrowserClient(server.url).get(`/detalles/${event.id}/calendario.ics`);
    expect(own.text).toContain("DTSTART:20301104T230000Z");
    expect(own.text).toContain(dtend);
    const feed = await new BrowserClient(server.url).get("/eventos.ics");
    expect(feed.text).toContain(dtend);

    const member = await createMember(server);
    await joinEvent(server.db, member.user, event.id);
    const token = await renewCalendarToken(server.db, member.user);
    const privateFeed = await new BrowserClient(server.url).get(`/calendario/${token}/eventos.ics`);
    expect(privateFeed.text).toContain(dtend);
    const [queued] = await server.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, member.user.id), eq(mailOutbox.kind, "joined")));
    const mail = await getQueuedMail(server.db, queued!.id);
    const message = composeMail(mail!, mailSite(server.config), MAIL_DRAFTS);
    const attachment = (message.attachments ?? []).map((a) => String(a.content)).join("");
    expect(attachment).toContain(dtend);
    expect(String(message.text)).toContain("al jueves, 7 de noviembre de 2030, 9:00");
    // A mail queued before events had an end (nor sessions): its attachment ends two hours after
    // the start.
    const { endsAt: _none, sessions: _noSessions, ...older } = mail!.data.event!;
    const olderMessage = composeMail(
      { ...mail!, data: { ...mail!.data, event: older } },
      mailSite(server.config),
      MAIL_DRAFTS,
    );
    expect((olderMessage.attachments ?? []).map((a) => String(a.content)).join("")).toContain(
      "DTEND:20301105T010000Z",
    );
  });
});
