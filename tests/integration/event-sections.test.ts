// One event's management page in sections with their own addresses (issue 57, decision 079): each
// section is a page that works without scripts, shows its own forms and no other's, marks itself
// in the menu and in the title; a form's answer comes back to its section; an unknown section is a
// 404; the sections send away whom the page sends away.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { events, type User } from "~/db/schema.server";
import { MESSAGES } from "~/messages";
import { grantRole } from "~/members/roles.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person;
let member: Person;
let event: { id: string; nombreEvento: string };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  event = await createTestEvent(server.db, admin.user, { nombreEvento: "Taller por partes" });
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  member = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const at = (section = "") => `/admin/eventos/${event.id}${section ? `/${section}` : ""}`;

/** Each section: its address, the title of what it holds, and its menu label. */
const SECTIONS = [
  ["", "event-form-title", "Datos del evento"],
  ["sesiones", "sesiones-title", "Sesiones"],
  ["galeria", "gallery-title", "Galería"],
  ["horario", "puerta-title", "Horario y enlaces"],
  ["certificado", "certificado-title", "Certificado"],
  ["personal", "personal-title", "Personal"],
] as const;

test("each section is a page of its own, holding its forms and no other section's", async () => {
  for (const [section, title, label] of SECTIONS) {
    const page = await organiser.client.get(at(section));
    expect(page.status, section).toBe(200);
    expect(page.text).toContain(`id="${title}"`);
    for (const [other, otherTitle] of SECTIONS)
      if (other !== section)
        expect(page.text, `${section} / ${other}`).not.toContain(`id="${otherTitle}"`);
    // Marked as the open one in the menu, and named in the page's title.
    expect(page.text).toMatch(new RegExp(`aria-current="page"[^>]*>${label}<`));
    expect(page.text).toContain(`<title>Gestionar: Taller por partes — ${label} — Ayllu</title>`);
  }
});

test("the menu lists every section and the day's pages, once each", async () => {
  const page = await organiser.client.get(at("sesiones"));
  const nav = /<nav[^>]*aria-label="Gestionar el evento"[^>]*>([\s\S]*?)<\/nav>/.exec(
    page.text,
  )?.[1];
  expect(nav).toBeDefined();
  const links = [...nav!.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  expect(links).toEqual([
    at(),
    at("sesiones"),
    at("galeria"),
    at("horario"),
    at("certificado"),
    at("personal"),
    at("participantes"),
    at("registro"),
    at("categorias"),
    at("equipos"),
    at("inspeccion"),
  ]);
});

test("an unknown or malformed section is a 404 that names nothing of the event", async () => {
  for (const section of ["nada", "SESIONES", "sesiones%20", "..%2Fregistro", "a".repeat(300)]) {
    const page = await organiser.client.get(at(section));
    expect(page.status, section).toBe(404);
    expect(page.text).not.toContain("Taller por partes");
  }
  // A form posted to it is refused the same way, and changes nothing.
  const posted = await organiser.client.post(at("nada"), {
    intent: "doorWindow",
    antes: "7",
    despues: "7",
  });
  expect(posted.status).toBe(404);
  const [row] = await server.db
    .select({ before: events.doorHoursBefore })
    .from(events)
    .where(eq(events.id, event.id));
  expect(row!.before).not.toBe(7);
  const unknown = await admin.client.get(`/admin/eventos/${randomUUID()}/sesiones`);
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain(MESSAGES.eventNotFound);
});

test("the sections refuse whom the management page refuses", async () => {
  for (const [section] of SECTIONS) {
    const visitor = await new BrowserClient(server.url).get(at(section));
    expect(visitor.status, section).toBe(302);
    expect(pathOf(visitor.location)).toMatch(/^\/login/);
    const stranger = await member.client.get(at(section));
    expect(stranger.status, section).toBe(302);
    expect(pathOf(stranger.location)).toBe("/inicio");
  }
});

test("a form's answer comes back to its own section", async () => {
  const door = await organiser.client.post(at("horario"), {
    intent: "doorWindow",
    antes: "2",
    despues: "1",
  });
  expect(door.status).toBe(302);
  expect(pathOf(door.location)).toBe(at("horario"));
  expect(new URL(door.location!).hash).toBe("#puerta-title");
  const share = await organiser.client.post(at("certificado"), {
    intent: "certificateShare",
    certificado: "si",
    porcentaje: "80",
  });
  expect(pathOf(share.location)).toBe(at("certificado"));
  expect(new URL(share.location!).hash).toBe("#certificado-title");
  const image = await organiser.client.post(at("galeria"), {
    intent: "galleryAdd",
    eventId: event.id,
    url: "https://example.com/foto.jpg",
  });
  expect(image.status).toBe(302);
  expect(pathOf(image.location)).toBe(`${at("galeria")}?galeria=${event.id}`);
  const gallery = await organiser.client.get(image.location!);
  expect(gallery.text).toContain("https://example.com/foto.jpg");
  // A refused form answers on its section, with the section's form and its message.
  const refused = await organiser.client.post(at("horario"), {
    intent: "doorWindow",
    antes: "999",
    despues: "1",
  });
  expect(refused.status).toBe(400);
  expect(refused.text).toContain('id="puerta-title"');
  expect(refused.text).toContain('id="puerta-antes-error"');
});
