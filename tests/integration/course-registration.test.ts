// Issue 35, part E: the course page registers in the site. At /admin/sitio an admin chooses one of
// the site's events for /clase1; 'Inscríbete Ahora' then shows its price and dates and leads to
// its registration, and the group's link shows only once registered. Without an event the outside
// form stays. Bad choices are refused by their field and change nothing.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, siteSections } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import { valuesFromSection } from "~/site/section-fields";
import { loadSiteSections } from "~/site/sections.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());
failOnConsoleError();

async function courseForm(change: Record<string, string>) {
  const content = (await loadSiteSections(server.db)).course;
  return {
    intent: "save",
    section: "course",
    ...(valuesFromSection("course", content) as Record<string, string | string[]>),
    groupHref: "https://chat.whatsapp.com/GrupoDelCurso",
    formHref: "https://forms.example/inscripcion",
    ...change,
  };
}

const text = (html: string) => html.replaceAll("<!-- -->", "");

test("with an event chosen, 'Inscríbete Ahora' shows its price and dates and leads to its registration; the group shows once registered", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Curso Micromouse 2031",
    fechaEvento: "2031-11-04",
  });
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
  const choices = await admin.client.get("/admin/sitio?seccion=course");
  expect(choices.text).toContain(`<option value="${event.id}">Curso Micromouse 2031 (`);
  const saved = await admin.client.post("/admin/sitio", await courseForm({ eventId: event.id }));
  expect(saved.status).toBe(302);

  const visitor = text((await new BrowserClient(server.url).get("/clase1")).text);
  expect(visitor).toContain("<dt>Precio</dt><dd>Bs 30</dd>");
  expect(visitor).toContain("4 de noviembre de 2031");
  expect(visitor).toContain(`href="/detalles/${event.id}"`);
  expect(visitor).toContain("Inscribirme en el sitio");
  // Not the outside form, and not the group before registering.
  expect(visitor).not.toContain("https://forms.example/inscripcion");
  expect(visitor).not.toContain("https://chat.whatsapp.com/GrupoDelCurso");

  const member = await createMember(server);
  expect(text((await member.client.get("/clase1")).text)).not.toContain(
    "https://chat.whatsapp.com/GrupoDelCurso",
  );
  await joinEvent(server.db, member.user, event.id);
  const registered = text((await member.client.get("/clase1")).text);
  expect(registered).toContain("https://chat.whatsapp.com/GrupoDelCurso");
  expect(registered).toContain("Ver mi inscripción");
});

test("without an event the outside form stays; an event that is over says the course ended and takes no registration (decision 076)", async () => {
  expect((await admin.client.post("/admin/sitio", await courseForm({ eventId: "" }))).status).toBe(
    302,
  );
  const page = text((await new BrowserClient(server.url).get("/clase1")).text);
  expect(page).toContain("https://forms.example/inscripcion");
  expect(page).not.toContain("Inscribirme en el sitio");

  const past = await createTestEvent(server.db, admin.user, { fechaEvento: "2020-02-02" });
  await admin.client.post("/admin/sitio", await courseForm({ eventId: past.id }));
  const after = text((await new BrowserClient(server.url).get("/clase1")).text);
  expect(after).not.toContain("Inscribirme en el sitio");
  expect(after).not.toContain("https://forms.example/inscripcion");
  expect(after).toContain("Este curso ya terminó: anunciaremos el próximo.");
});

test("a bad event is refused by its field and nothing is saved: malformed, unknown, a javascript: address, two of them", async () => {
  const before = await server.db
    .select()
    .from(siteSections)
    .where(eq(siteSections.section, "course"));
  const listed = "«Evento de la inscripción» debe ser uno de los eventos de la lista.";
  for (const [eventId, message] of [
    ["123", listed],
    [randomUUID(), listed],
    ["javascript:alert(1)", listed],
    [`${randomUUID()}x`, "«Evento de la inscripción» puede tener como máximo 36 caracteres."],
  ] as const) {
    const reply = await admin.client.post("/admin/sitio", await courseForm({ eventId }));
    expect(reply.status, eventId).toBe(400);
    expect(/id="sitio-course-eventId-error">([^<]*)</.exec(reply.text)?.[1], eventId).toBe(message);
  }
  const twice = await courseForm({});
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(twice))
    for (const value of Array.isArray(v) ? v : [v]) body.append(k, value);
  body.append("eventId", randomUUID());
  body.append("eventId", randomUUID());
  expect((await admin.client.post("/admin/sitio", body)).status).toBe(400);
  expect(
    await server.db.select().from(siteSections).where(eq(siteSections.section, "course")),
  ).toEqual(before);
  // Members may not choose it.
  const member = await createMember(server);
  expect(
    (await member.client.post("/admin/sitio", await courseForm({ eventId: randomUUID() }))).status,
  ).toBe(403);
});

test("a current course card on the home page registers in the site's event it names: its price, its page; a bad choice is refused", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Seguidor de línea 2031",
    fechaEvento: "2031-10-04",
  });
  await server.db.update(events).set({ priceCents: 5050 }).where(eq(events.id, event.id));
  const coursesForm = async (eventId: string) => {
    const values = valuesFromSection(
      "courses",
      (await loadSiteSections(server.db)).courses,
    ) as Record<string, string | string[]>;
    return {
      ...values,
      intent: "save",
      section: "courses",
      "current.title": ["Seguidor de línea"],
      "current.subtitle": ["Cuatro sábados"],
      "current.dates": ["Octubre"],
      "current.image": [""],
      "current.href": [""],
      "current.linkLabel": [""],
      "current.eventId": [eventId],
    };
  };
  const choices = await admin.client.get("/admin/sitio?seccion=courses");
  expect(choices.text).toContain(`<option value="${event.id}">Seguidor de línea 2031 (`);
  for (const bad of ["123", randomUUID(), "javascript:alert(1)"]) {
    const reply = await admin.client.post("/admin/sitio", await coursesForm(bad));
    expect(reply.status, bad).toBe(400);
  }
  const saved = await admin.client.post("/admin/sitio", await coursesForm(event.id));
  expect(saved.status).toBe(302);
  const home = text((await new BrowserClient(server.url).get("/")).text);
  // The card reads the event's own dates and price, not the section's words (decision 076).
  expect(home).toMatch(/octubre de 2031 · Bs 50,50/);
  expect(home).not.toContain("Octubre · Bs 50,50");
  expect(home).toMatch(new RegExp(`<a [^>]*href="/detalles/${event.id}"[^>]*>INSCRÍBETE</a>`));
});
