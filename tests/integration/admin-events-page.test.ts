// 'Eventos Publicados' on /admin a page at a time: many events, a page of them, their pages and
// a search by title, and what bad paging or search values get.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { User } from "~/db/schema.server";
import { rowsOf } from "~/db/rows.server";
import { ROLE_NOT_SEEN } from "~/members/roles";
import { ADMIN_EVENTS_PAGE_SIZE } from "~/events/event.server";
import { failOnConsoleError } from "../helpers/console";
import type { BrowserClient } from "../helpers/browser-client";
import { createAdmin, createMember } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
const MANY = 120;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  // 'Evento 001' is the oldest, 'Evento 120' the newest (one a day).
  await server.db.execute(sql`
    insert into events (nombre_evento, ubicacion_evento, tipo_evento, enlaces_virtuales, fecha_evento,
                        hora_evento, starts_at, ends_at, imagen_enlace, descripcion, published_by_name)
    select 'Evento ' || lpad(g::text, 3, '0'), 'Bolivia, La Paz', 'Presencial', '{}'::text[],
           date '2030-01-01' + g, time '19:00',
           ((date '2030-01-01' + g) + time '19:00') at time zone 'America/La_Paz',
           ((date '2030-01-01' + g) + time '21:00') at time zone 'America/La_Paz',
           'https://example.com/e.png', 'Taller.', 'Jefa Admin'
    from generate_series(1, ${MANY}) g`);
});
afterAll(() => server?.close());

failOnConsoleError();

/** The titles of the rows of 'Eventos Publicados' in a page's HTML, in order. */
function rowTitles(text: string): string[] {
  return [...text.matchAll(/aria-label="Gestionar (Evento \d{3}): /g)].map((m) => m[1]!);
}

test("with many events the panel sends one page of them, newest first, and says how many there are", async () => {
  const page = await admin.client.get("/admin");
  expect(page.status).toBe(200);
  const titles = rowTitles(page.text);
  expect(titles).toHaveLength(ADMIN_EVENTS_PAGE_SIZE);
  expect(titles[0]).toBe("Evento 120");
  expect(titles.at(-1)).toBe(
    `Evento ${String(MANY - ADMIN_EVENTS_PAGE_SIZE + 1).padStart(3, "0")}`,
  );
  const pages = Math.ceil(MANY / ADMIN_EVENTS_PAGE_SIZE);
  expect(page.text).toContain(`Página 1 de ${pages}`);
  expect(page.text).toContain(`1–${ADMIN_EVENTS_PAGE_SIZE} de ${MANY} eventos`);
  expect(page.text).toMatch(/href="\/admin\?paginaEventos=2"[^>]*>Siguiente</);
});

test("?paginaEventos=2 gives the next page, and the last page the oldest events", async () => {
  const second = await admin.client.get("/admin?paginaEventos=2");
  const titles = rowTitles(second.text);
  expect(titles).toHaveLength(ADMIN_EVENTS_PAGE_SIZE);
  expect(titles[0]).toBe(`Evento ${String(MANY - ADMIN_EVENTS_PAGE_SIZE).padStart(3, "0")}`);
  const pages = Math.ceil(MANY / ADMIN_EVENTS_PAGE_SIZE);
  const last = await admin.client.get(`/admin?paginaEventos=${pages}`);
  expect(rowTitles(last.text).at(-1)).toBe("Evento 001");
  expect(last.text).toContain(`Página ${pages} de ${pages}`);
  expect(last.text).not.toContain(">Siguiente<");
});

test("?buscarEvento= finds events by title, keeps the search in the box and in the page links", async () => {
  const found = await admin.client.get("/admin?buscarEvento=evento%2011");
  expect(found.status).toBe(200);
  expect(rowTitles(found.text)).toEqual([
    "Evento 119",
    "Evento 118",
    "Evento 117",
    "Evento 116",
    "Evento 115",
    "Evento 114",
    "Evento 113",
    "Evento 112",
    "Evento 111",
    "Evento 110",
  ]);
  expect(found.text).toMatch(/id="event-search"[^>]*value="evento 11"/);
  expect(found.text).toContain("10 eventos");
  // Opening a row's dialog keeps the list as it was searched.
  expect(found.text).toContain("galeria=");
  expect(found.text).toMatch(/href="\/admin\?buscarEvento=evento\+11&amp;galeria=/);

  const none = await admin.client.get("/admin?buscarEvento=no%20existe");
  expect(rowTitles(none.text)).toEqual([]);
  expect(none.text).toContain("Ningún evento coincide con la búsqueda.");
  // LIKE's own characters are searched as themselves.
  const percent = await admin.client.get("/admin?buscarEvento=%25");
  expect(rowTitles(percent.text)).toEqual([]);
});

test("bad page numbers and searches get a page, never an error", async () => {
  const pages = Math.ceil(MANY / ADMIN_EVENTS_PAGE_SIZE);
  for (const value of ["abc", "-1", "0", "1.5", "", "%00", "Infinity"]) {
    const page = await admin.client.get(`/admin?paginaEventos=${value}`);
    expect(page.status, value).toBe(200);
    expect(rowTitles(page.text)[0], value).toBe("Evento 120");
  }
  const huge = await admin.client.get(`/admin?paginaEventos=${"9".repeat(400)}`);
  expect(huge.status).toBe(200);
  expect(huge.text).toContain(`Página ${pages} de ${pages}`);

  // A 10,000-character search goes back to an address with what the list uses.
  const long = await admin.client.get(`/admin?buscarEvento=${"e".repeat(10_000)}`);
  expect(long.status).toBe(302);
  const location = long.location ?? "";
  expect(location.length).toBeLessThan(200);
  const followed = await admin.client.get(location);
  expect(followed.status).toBe(200);
  expect(followed.text).toContain("Ningún evento coincide con la búsqueda.");

  const control = await admin.client.get("/admin?buscarEvento=%00a");
  expect(control.status).toBe(200);
  expect(rowTitles(control.text)).toEqual([]);
});

test("a member is refused the panel's pages as before", async () => {
  const member = await createMember(server);
  const page = await member.client.get("/admin?paginaEventos=2");
  expect(page.status).not.toBe(200);
});

test("a site-wide role sent with an event is refused with a clear message, and nothing is granted", async () => {
  const member = await createMember(server);
  const [event] = rowsOf<{ id: string }>(
    await server.db.execute(sql`select id from events order by fecha_evento desc limit 1`),
  );
  const refused = await admin.client.post("/admin", {
    intent: "grantRole",
    userId: member.user.id,
    kind: "treasurer",
    eventId: event!.id,
    visto: ROLE_NOT_SEEN,
  });
  expect(refused.status).toBe(400);
  expect(refused.text).toContain("Ese rol es para todo el sitio, no para un evento");
  const after = await admin.client.get(`/admin?usuario=${member.user.id}`);
  expect(after.text).toContain("Sin roles: solo lo de cualquier miembro.");
  // Without an event, the same role is given.
  const granted = await admin.client.post("/admin", {
    intent: "grantRole",
    userId: member.user.id,
    kind: "treasurer",
    eventId: "",
    visto: ROLE_NOT_SEEN,
  });
  expect(granted.status).toBe(302);
});
