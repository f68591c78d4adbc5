// The participants page and its CSV: who may see them, what they hold, and marking who came.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { events, participations, users, type User } from "~/db/schema.server";
import { listAttendance, setCheckedIn } from "~/attendance/attendance.server";
import { joinEvent } from "~/events/participation.server";
import { NotAllowedError } from "~/kernel/permissions";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import {
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  eventFieldError,
  eventForm,
  landOn,
  openForCheckIn,
  snapshot,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

const CAPACITY_INVALID = "El cupo debe ser un número entero de plazas (1 o más), o quedar vacío.";

/** Reads CSV back by RFC 4180: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  expect(cell).toBe("");
  expect(row).toEqual([]);
  return rows;
}

async function checkedInAt(eventId: string, userId: string) {
  const [row] = await server.db
    .select({ at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)));
  return row?.at ?? null;
}

async function fullEventWithPeople() {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Curso de Sumo ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2031-06-06",
    capacity: "2",
  });
  const a = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  const b = await createMember(server, `beto-${randomUUID()}@example.com`, "Beto Mamani");
  const c = await createMember(server, `caro-${randomUUID()}@example.com`, "Carolina Flores");
  for (const m of [a, b, c]) await joinEvent(server.db, m.user, event.id);
  return { event, a, b, c };
}

test("an admin sees the participants and the waiting list with their counts, and a link to the CSV", async () => {
  const { event } = await fullEventWithPeople();
  const page = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toContain("no-store");
  expect(page.text).toContain(`Participantes: <!-- -->${event.nombreEvento}`);
  expect(page.text).toContain("2 de 2 plazas ocupadas");
  expect(page.text).toContain("1 en lista de espera");
  expect(page.text).toContain("Ana Quispe");
  expect(page.text).toContain("Beto Mamani");
  expect(page.text).toMatch(/Lista de espera[\s\S]*1<!-- -->\. <!-- -->Carolina Flores/);
  expect(page.text).toContain(`href="/admin/eventos/${event.id}/participantes.csv"`);
});

test("visitors go to sign in and members are refused the participants page, its CSV and its actions; nothing changes", async () => {
  const { event, a } = await fullEventWithPeople();
  const visitor = new BrowserClient(server.url);
  const member = await createMember(server);
  for (const path of [
    `/admin/eventos/${event.id}/participantes`,
    `/admin/eventos/${event.id}/participantes.csv`,
  ]) {
    const v = await visitor.get(path);
    expect(v.status).toBe(302);
    expect(pathOf(v.location)).toMatch(/^\/login/);
    const m = await member.client.get(path);
    expect(m.status).toBe(302);
    expect(pathOf(m.location)).toBe("/inicio");
    expect(m.text).not.toContain(a.user.email);
  }
  const post = { intent: "checkIn", userId: a.user.id };
  const v = await visitor.post(`/admin/eventos/${event.id}/participantes`, post);
  expect(v.status).toBe(302);
  expect(pathOf(v.location)).toMatch(/^\/login/);
  const m = await member.client.post(`/admin/eventos/${event.id}/participantes`, post);
  expect(m.status).toBe(403);
  expect(await checkedInAt(event.id, a.user.id)).toBeNull();
  // The model refuses by itself, whoever calls it.
  await expect(listAttendance(server.db, member.user, event.id)).rejects.toBeInstanceOf(
    NotAllowedError,
  );
  await expect(
    setCheckedIn(server.db, member.user, event.id, a.user.id, true),
  ).rejects.toBeInstanceOf(NotAllowedError);
  await expect(setCheckedIn(server.db, null, event.id, a.user.id, true)).rejects.toBeInstanceOf(
    NotAllowedError,
  );
  expect(await checkedInAt(event.id, a.user.id)).toBeNull();
});

test("unknown and malformed event ids are a 404 for the page and the CSV", async () => {
  for (const id of [randomUUID(), "no-es-un-id", "1%27%20or%201=1"]) {
    for (const path of [
      `/admin/eventos/${id}/participantes`,
      `/admin/eventos/${id}/participantes.csv`,
    ]) {
      const reply = await admin.client.get(path);
      expect(reply.status, path).toBe(404);
    }
    const post = await admin.client.post(`/admin/eventos/${id}/participantes`, {
      intent: "checkIn",
      userId: admin.user.id,
    });
    expect(post.status).toBe(404);
  }
});

test("the CSV has a byte-order mark, a header, one quoted row per participant, and defuses formulas", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-07-07" });
  const tricky = await createMember(server, `trucos-${randomUUID()}@example.com`, "x");
  await server.db
    .update(users)
    .set({
      nombreCompleto: '=HYPERLINK("http://malo.example","clic")',
      ciudad: "La Paz, Bolivia",
      habilidades: '+Arduino "y" @ROS',
    })
    .where(eq(users.id, tricky.user.id));
  const plain = await createMember(server, `nina-${randomUUID()}@example.com`, "Niña Ñandú");
  await joinEvent(server.db, tricky.user, event.id);
  await joinEvent(server.db, plain.user, event.id);
  await openForCheckIn(server.db, event.id);
  await setCheckedIn(server.db, admin.user, event.id, plain.user.id, true);

  const reply = await admin.client.get(`/admin/eventos/${event.id}/participantes.csv`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(reply.headers.get("content-disposition")).toContain("attachment");
  // fetch's text() drops a byte-order mark: read the bytes as sent.
  const raw = await fetch(reply.url, { headers: { Cookie: admin.client.cookieHeader() } });
  const bytes = Buffer.from(await raw.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString("utf8");
  expect(text.endsWith("\r\n")).toBe(true);
  const rows = parseCsv(text);
  expect(rows[0]).toEqual([
    "Nombre",
    "Correo electrónico",
    "Ciudad",
    "Habilidades",
    "Inscripción",
    "Asistencia",
  ]);
  expect(rows).toHaveLength(3);
  const trickyRow = rows.find((r) => r[1] === tricky.user.email)!;
  expect(trickyRow[0]).toBe(`'=HYPERLINK("http://malo.example","clic")`);
  expect(trickyRow[2]).toBe("La Paz, Bolivia");
  expect(trickyRow[3]).toBe(`'+Arduino "y" @ROS`);
  expect(trickyRow[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  expect(trickyRow[5]).toBe("");
  const plainRow = rows.find((r) => r[1] === plain.user.email)!;
  expect(plainRow[0]).toBe("Niña Ñandú");
  expect(plainRow[5]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  // No cell that a spreadsheet would run as a formula.
  for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
});

test("an admin marks a participant present once (a second mark keeps the first time), and can undo it", async () => {
  const { event, a } = await fullEventWithPeople();
  // Its door is open (decision 075): 'Marcar presente' follows it.
  await openForCheckIn(server.db, event.id);
  const path = `/admin/eventos/${event.id}/participantes`;
  const marked = await landOn(
    admin.client,
    await admin.client.post(path, { intent: "checkIn", userId: a.user.id }),
  );
  expect(alertsIn(marked.text)).toEqual([MESSAGES.checkedIn]);
  expect(marked.text).toContain("1 asistió");
  const first = await checkedInAt(event.id, a.user.id);
  expect(first).not.toBeNull();
  await admin.client.post(path, { intent: "checkIn", userId: a.user.id });
  expect(await checkedInAt(event.id, a.user.id)).toEqual(first);

  const undone = await landOn(
    admin.client,
    await admin.client.post(path, { intent: "undoCheckIn", userId: a.user.id }),
  );
  expect(alertsIn(undone.text)).toEqual([MESSAGES.checkInUndone]);
  expect(await checkedInAt(event.id, a.user.id)).toBeNull();
});

test("marking someone who does not participate, a malformed or missing person, or an unknown intent changes nothing", async () => {
  const { event, a, c } = await fullEventWithPeople();
  const path = `/admin/eventos/${event.id}/participantes`;
  for (const userId of [c.user.id, randomUUID(), "no-es-un-id", "", "x".repeat(5000)]) {
    const reply = await admin.client.post(path, { intent: "checkIn", userId });
    expect(reply.status, userId.slice(0, 20)).toBe(404);
    // The site's one not-found answer: the error page names who was not found.
    expect(reply.text).toContain(`<h1 id="error-title">${MESSAGES.participantNotFound}</h1>`);
  }
  const missing = await admin.client.post(path, { intent: "checkIn" });
  expect(missing.status).toBe(404);
  const unknown = await admin.client.post(path, { intent: "borrarTodo", userId: a.user.id });
  expect(unknown.status).toBe(400);
  expect(await checkedInAt(event.id, a.user.id)).toBeNull();
});

test("the admin's event form takes 'Cupo (plazas, opcional)': blank is no limit, a number is the seats, and bad input is a field error that changes nothing", async () => {
  const nombreEvento = `Con cupo ${randomUUID().slice(0, 6)}`;
  const bad: Array<[string, string]> = [
    ["0", CAPACITY_INVALID],
    ["-4", CAPACITY_INVALID],
    ["2.5", CAPACITY_INVALID],
    ["diez", CAPACITY_INVALID],
    ["javascript:alert(1)", CAPACITY_INVALID],
    ["9".repeat(5000), CAPACITY_INVALID],
    ["100001", "El cupo puede ser como máximo 100.000 plazas."],
  ];
  const before = await snapshot(server.db);
  for (const [capacity, message] of bad) {
    const reply = await admin.client.post(
      "/admin",
      eventForm("publish", { nombreEvento }, [], undefined, { capacity }),
    );
    expect(reply.status, capacity.slice(0, 20)).toBe(400);
    expect(eventFieldError(reply.text, "capacity")).toBe(message);
    expect(reply.text).toMatch(/id="evento-capacity"[^>]*aria-invalid="true"/);
  }
  expect(await snapshot(server.db)).toEqual(before);

  const published = await admin.client.post(
    "/admin",
    eventForm("publish", { nombreEvento }, [], undefined, { capacity: "12" }),
  );
  expect(published.status).toBe(302);
  const [event] = await server.db
    .select()
    .from(events)
    .where(eq(events.nombreEvento, nombreEvento));
  expect(event!.capacity).toBe(12);
  const edit = await admin.client.get(`/admin?editar=${event!.id}`);
  expect(edit.text).toContain("Cupo (plazas, opcional)");
  expect(edit.text).toMatch(/id="evento-capacity"[^>]*value="12"/);
  // Editing with the field blank removes the limit.
  const updated = await admin.client.post(
    "/admin",
    eventForm("update", { nombreEvento }, [], undefined, { eventId: event!.id, capacity: "" }),
  );
  expect(updated.status).toBe(302);
  const [after] = await server.db.select().from(events).where(eq(events.id, event!.id));
  expect(after!.capacity).toBeNull();
  // A member cannot set a capacity.
  const member = await createMember(server);
  const refused = await member.client.post(
    "/admin",
    eventForm("update", { nombreEvento }, [], undefined, { eventId: event!.id, capacity: "1" }),
  );
  expect(refused.status).toBe(403);
  const [still] = await server.db.select().from(events).where(eq(events.id, event!.id));
  expect(still!.capacity).toBeNull();
});

test("the admin's event list links to each event's participants, and a member's details mark past events 'Asistió' or 'Inscrito'", async () => {
  const came = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Fue ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2024-02-02",
  });
  const registered = await createTestEvent(server.db, admin.user, {
    nombreEvento: `No fue ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2024-02-03",
  });
  const { user } = await createMember(server);
  await joinEvent(server.db, user, came.id, new Date("2024-01-01T00:00:00Z"));
  await joinEvent(server.db, user, registered.id, new Date("2024-01-01T00:00:00Z"));
  await setCheckedIn(server.db, admin.user, came.id, user.id, true);

  const panel = await admin.client.get("/admin");
  expect(panel.text).toContain(`href="/admin/eventos/${came.id}/participantes"`);
  const details = await admin.client.get(`/admin?usuario=${user.id}`);
  expect(details.text).toMatch(
    new RegExp(`${came.nombreEvento}</a>[\\s\\S]*?<span class="badge">Asistió</span>`),
  );
  expect(details.text).toMatch(
    new RegExp(`${registered.nombreEvento}</a>[\\s\\S]*?<span class="badge">Inscrito</span>`),
  );
});
