import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { UNKNOWN_FIELDS_MESSAGE } from "~/kernel/forms";
import { zonedToInstant } from "~/kernel/time";
import { defaultEndsAt } from "~/events/event-commands.server";
import { events, participations } from "~/db/schema.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import {
  alertsIn,
  BAD_INPUTS,
  controlOf,
  escapeHtml,
  fieldErrorOf,
  userRow,
  userRowByEmail,
  VALID_PROFILE,
} from "../helpers/profile-form";
import { failOnConsoleError } from "../helpers/console";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInNewcomer } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

failOnConsoleError();

const EMPTY_EVENTS = "No estás participando en ningún evento aún.";

/** A member who signed in as `displayName` and completed the additional data form. */
async function createMember(
  profile: Partial<Record<keyof typeof VALID_PROFILE, string>> = {},
  displayName = "ana_robotica",
) {
  const email = `miembro-${randomUUID()}@example.com`;
  const client = await signInNewcomer(server.url, email, displayName);
  const saved = await client.post("/aditionaldata", { ...VALID_PROFILE, ...profile });
  expect(saved.status).toBe(302);
  const user = await userRowByEmail(server.db, email);
  expect(user.nombreCompleto).not.toBeNull();
  // The "saved" message waits in a cookie for the next page; a member arriving later has seen it.
  await client.get("/");
  return { client, user };
}

async function createEvent(
  fields: { nombreEvento?: string; fechaEvento?: string; horaEvento?: string } = {},
) {
  const fechaEvento = fields.fechaEvento ?? "2025-12-06";
  const horaEvento = fields.horaEvento ?? "19:00";
  const [event] = await server.db
    .insert(events)
    .values({
      nombreEvento: fields.nombreEvento ?? "Clash Robotics",
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      fechaEvento,
      horaEvento,
      startsAt: zonedToInstant(fechaEvento, horaEvento, "America/La_Paz"),
      endsAt: defaultEndsAt(zonedToInstant(fechaEvento, horaEvento, "America/La_Paz")),
      imagenEnlace: "https://example.com/evento.png",
      descripcion: "Competencia de robótica.",
      publishedByName: "Admin",
    })
    .returning();
  return event!;
}

async function join(userId: string, eventId: string) {
  await server.db.insert(participations).values({ userId, eventId });
}

/** The value shown for `term` in the read view. */
/** A detail's text as read: the markup inside it (a name's break points) left out. */
function detailOf(html: string, term: string): string | null {
  const found = new RegExp(`<dt>${term}</dt><dd>(.*?)</dd>`, "s").exec(html)?.[1];
  return found === undefined ? null : found.replace(/<[^>]*>/g, "");
}

function eventsSectionOf(html: string): string {
  return /<section[^>]*aria-labelledby="events-title"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? "";
}

function formOf(html: string): string {
  return /<form(?=[^>]*class="form")[^>]*>(.*?)<\/form>/s.exec(html)?.[1] ?? "";
}

test("a visitor who is not signed in is sent to /login?redirectTo=%2Fprofile", async () => {
  const client = new BrowserClient(server.url);
  const reply = await client.get("/profile");
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login?redirectTo=%2Fprofile");
  const post = await client.post("/profile", VALID_PROFILE);
  expect(post.status).toBe(302);
  expect(pathOf(post.location)).toBe("/login?redirectTo=%2Fprofile");
});

test("a member without nombreCompleto is sent to /aditionaldata, by the page and by the edit form", async () => {
  const email = `sin-datos-${randomUUID()}@example.com`;
  const client = await signInNewcomer(server.url, email, "Sin Datos");
  const before = await userRowByEmail(server.db, email);

  const page = await client.get("/profile");
  expect(page.status).toBe(302);
  expect(new URL(page.location!).pathname).toBe("/aditionaldata");

  const post = await client.post("/profile", VALID_PROFILE);
  expect(post.status).toBe(302);
  expect(new URL(post.location!).pathname).toBe("/aditionaldata");
  expect(await userRow(server.db, before.id)).toEqual(before);
});

test("the read view shows username, registered name, birth date in Spanish, country, city, gender, skills and 'Editar Perfil'", async () => {
  const { client } = await createMember(
    {
      nombreCompleto: "Ana Quispe Mamani",
      fechaNacimiento: "1990-05-17",
      pais: "Bolivia",
      ciudad: "El Alto",
      genero: "Femenino",
      habilidades: "Soldadura",
    },
    "ana_robotica",
  );
  const page = await client.get("/profile");
  expect(page.status).toBe(200);
  expect(detailOf(page.text, "Nombre de usuario")).toBe("ana_robotica");
  expect(detailOf(page.text, "Nombre registrado")).toBe("Ana Quispe Mamani");
  expect(detailOf(page.text, "Fecha de nacimiento")).toBe("17 de mayo de 1990");
  expect(detailOf(page.text, "País")).toBe("Bolivia");
  expect(detailOf(page.text, "Ciudad")).toBe("El Alto");
  expect(detailOf(page.text, "Género")).toBe("Femenino");
  expect(detailOf(page.text, "Habilidades")).toBe("Soldadura");
  expect(page.text).toMatch(/<a[^>]*href="\/profile\?editar=1"[^>]*>Editar Perfil<\/a>/);
  expect(page.text).not.toContain("Guardar Cambios");
});

test("the read view says 'No especificadas' when the member has no skills", async () => {
  const { client } = await createMember({ habilidades: "" });
  const page = await client.get("/profile");
  expect(detailOf(page.text, "Habilidades")).toBe("No especificadas");
});

test("the edit view shows the current values, 'Guardar Cambios' and 'Cancelar', and no required marks", async () => {
  const { client } = await createMember({ ciudad: "Cochabamba", genero: "Otro" });
  const page = await client.get("/profile?editar=1");
  expect(page.status).toBe(200);
  const form = formOf(page.text);
  expect(form).toMatch(/<button type="submit"[^>]*>Guardar Cambios<\/button>/);
  expect(form).toMatch(/<a[^>]*href="\/profile"[^>]*>Cancelar<\/a>/);
  expect(controlOf(form, "ciudad")).toContain('value="Cochabamba"');
  expect(form).toMatch(/<option value="Otro" selected="">Otro<\/option>/);
  expect(form).not.toMatch(/\brequired=""/);
  expect(form).not.toContain(" *</span>");
  expect(page.text).not.toContain(">Editar Perfil</a>");
});

test("a valid edit saves every field and updatedAt, returns to the read view and says 'Perfil actualizado con éxito!' once", async () => {
  const { client, user } = await createMember();
  const reply = await client.post("/profile", {
    nombreCompleto: " Juan Pérez ",
    fechaNacimiento: "2001-12-31",
    pais: "Perú",
    ciudad: "Cusco",
    genero: "Masculino",
    habilidades: "Micromouse",
  });
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/profile");

  const saved = await userRow(server.db, user.id);
  expect(saved).toMatchObject({
    nombreCompleto: "Juan Pérez",
    fechaNacimiento: "2001-12-31",
    pais: "Perú",
    ciudad: "Cusco",
    genero: "Masculino",
    habilidades: "Micromouse",
    isAdmin: false,
    email: user.email,
  });
  expect(saved.updatedAt!.getTime()).toBeGreaterThan(user.updatedAt!.getTime());

  const page = await client.get("/profile");
  expect(alertsIn(page.text)).toEqual(["Perfil actualizado con éxito!"]);
  expect(detailOf(page.text, "Nombre registrado")).toBe("Juan Pérez");
  expect(detailOf(page.text, "Fecha de nacimiento")).toBe("31 de diciembre de 2001");
  expect(alertsIn((await client.get("/profile")).text)).toEqual([]);
});

test("clearing habilidades in the edit form stores an empty text", async () => {
  const { client, user } = await createMember({ habilidades: "Arduino" });
  const reply = await client.post("/profile", { ...VALID_PROFILE, habilidades: "" });
  expect(reply.status).toBe(302);
  expect((await userRow(server.db, user.id)).habilidades).toBe("");
});

test.each(BAD_INPUTS)(
  "the edit form refuses $title with status 400, a message next to $field, and changes nothing",
  async ({ form, field, message }) => {
    const { client, user } = await createMember();
    const reply = await client.post("/profile", form());
    expect(reply.status).toBe(400);
    expect(fieldErrorOf(reply.text, field)).toBe(message);
    expect(controlOf(reply.text, field)).toContain('aria-invalid="true"');
    expect(reply.text).toContain("Guardar Cambios");
    expect(await userRow(server.db, user.id)).toEqual(user);
  },
);

test("the edit form refuses isAdmin, uid and email with the unknown-fields message and changes nothing", async () => {
  const { client, user } = await createMember();
  const reply = await client.post("/profile", {
    ...VALID_PROFILE,
    isAdmin: "true",
    uid: randomUUID(),
    email: "otra@example.com",
  });
  expect(reply.status).toBe(400);
  const [alert] = alertsIn(reply.text);
  expect(alert).toContain(UNKNOWN_FIELDS_MESSAGE);
  const after = await userRow(server.db, user.id);
  expect(after).toEqual(user);
  expect(after.isAdmin).toBe(false);
});

test("the edit form refuses a file uploaded in a text field and changes nothing", async () => {
  const { client, user } = await createMember();
  const body = new FormData();
  for (const [key, value] of Object.entries(VALID_PROFILE)) body.append(key, value);
  body.set("ciudad", new File(["Sucre"], "ciudad.txt", { type: "text/plain" }));
  const reply = await client.request("POST", "/profile", { body });
  expect(reply.status).toBe(400);
  expect(fieldErrorOf(reply.text, "ciudad")).toBe("Este campo tiene un valor no válido.");
  expect(await userRow(server.db, user.id)).toEqual(user);
});

test("an edit posted from another site is refused with 403 and changes nothing", async () => {
  const { client, user } = await createMember();
  const reply = await client.post(
    "/profile",
    { ...VALID_PROFILE, nombreCompleto: "Suplantada" },
    { origin: "https://evil.example" },
  );
  expect(reply.status).toBe(403);
  expect(await userRow(server.db, user.id)).toEqual(user);
});

test("'Eventos Participando' says 'No estás participando en ningún evento aún.' when the member has joined nothing", async () => {
  const { client } = await createMember();
  await createEvent();
  const section = eventsSectionOf((await client.get("/profile")).text);
  expect(section).toContain("Eventos Participando");
  expect(section).toContain(EMPTY_EVENTS);
  expect(section).not.toContain("Ver Detalles");
});

test("'Eventos Participando' lists a joined event with its date in the site's zone and 'Ver Detalles' to /detalles/{id}", async () => {
  const { client, user } = await createMember();
  const event = await createEvent({
    nombreEvento: "Curso Micromouse",
    fechaEvento: "2025-12-06",
    horaEvento: "19:00",
  });
  await join(user.id, event.id);
  const section = eventsSectionOf((await client.get("/profile")).text);
  expect(section).not.toContain(EMPTY_EVENTS);
  expect(section).toContain("<strong>Curso Micromouse</strong>");
  expect(section).toContain("6 de diciembre de 2025");
  expect(section).toMatch(/7:00[\s\u00a0\u202f]p\.[\s\u00a0\u202f]m\./);
  expect(section).toMatch(new RegExp(`<a[^>]*href="/detalles/${event.id}"[^>]*>Ver Detalles</a>`));
});

test("'Eventos Participando' lists several events soonest first", async () => {
  const { client, user } = await createMember();
  const later = await createEvent({
    nombreEvento: "Competencia Universitarios",
    fechaEvento: "2026-03-01",
  });
  const sooner = await createEvent({
    nombreEvento: "Competencia Colegios",
    fechaEvento: "2026-02-01",
  });
  await join(user.id, later.id);
  await join(user.id, sooner.id);
  const links = [
    ...eventsSectionOf((await client.get("/profile")).text).matchAll(
      /href="\/detalles\/([0-9a-f-]+)"/g,
    ),
  ].map((m) => m[1]);
  expect(links).toEqual([sooner.id, later.id]);
});

test("another member's participations do not show on my profile", async () => {
  const me = await createMember();
  const other = await createMember({ nombreCompleto: "Otra Persona" });
  const event = await createEvent({ nombreEvento: "Evento de Otra Persona" });
  await join(other.user.id, event.id);

  const mine = eventsSectionOf((await me.client.get("/profile")).text);
  expect(mine).toContain(EMPTY_EVENTS);
  expect(mine).not.toContain("Evento de Otra Persona");
  expect(mine).not.toContain(event.id);

  const theirs = eventsSectionOf((await other.client.get("/profile")).text);
  expect(theirs).toContain("Evento de Otra Persona");
});

test("an event's name with HTML in it is shown as text", async () => {
  const { client, user } = await createMember();
  const name = "<script>alert(1)</script><img src=x onerror=alert(2)>";
  const event = await createEvent({ nombreEvento: name });
  await join(user.id, event.id);
  const page = await client.get("/profile");
  expect(page.text).not.toContain("<script>alert(1)</script>");
  expect(page.text).not.toContain("<img src=x");
  expect(eventsSectionOf(page.text)).toContain(`<strong>${escapeHtml(name)}</strong>`);
});

test("profile fields with HTML in them are shown as text in the read and edit views", async () => {
  const { client } = await createMember({ ciudad: "<b>La Paz</b>", habilidades: "<i>x</i>" });
  const read = await client.get("/profile");
  expect(detailOf(read.text, "Ciudad")).toBe(escapeHtml("<b>La Paz</b>"));
  expect(read.text).not.toContain("<b>La Paz</b>");
  const edit = await client.get("/profile?editar=1");
  expect(controlOf(edit.text, "habilidades")).toContain(`value="${escapeHtml("<i>x</i>")}"`);
});
