// Issue 38, point 1 (decision 051): a competition's categories. Admins and the event's organisers
// add, change, reorder and delete them over plain POST forms; everyone else is refused; every bad
// input is a Spanish message, a 4xx and nothing changed. The event's page lists them, /events links
// an item to the competition an admin picked at /admin/sitio, and the event's deletion takes them.
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditLog, competitionCategories, siteSections, type User } from "~/db/schema.server";
import { deleteEvent } from "~/events/event-commands.server";
import { grantRole } from "~/members/roles.server";
import { valuesFromSection } from "~/site/section-fields";
import { loadSiteSections } from "~/site/sections.server";
import { CATEGORY_MESSAGES } from "~/competitions/categories";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person;
let organiserElsewhere: Person;
let member: Person;
let door: Person;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  organiserElsewhere = await createMember(server, `otra-${randomUUID()}@example.com`, "Otra Org");
  member = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  door = await createMember(server, `puerta-${randomUUID()}@example.com`, "Pedro Puerta");
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const text = (html: string) => html.replaceAll("<!-- -->", "");

/** A competition in 2030 with its organiser and door staff, and another event with its own organiser. */
async function competition(name = `Clash Robotics ${randomUUID().slice(0, 4)}`) {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: name });
  const elsewhere = await createTestEvent(server.db, admin.user, { nombreEvento: `Otro ${name}` });
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, {
    userId: organiserElsewhere.user.id,
    kind: "organiser",
    eventId: elsewhere.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  return event;
}

const SUMO = {
  nombre: "Robot Sumo",
  nivel: "secundaria",
  minimo: "2",
  maximo: "3",
  entrenador: "",
  reglas: "Robot autónomo.\nSin armas.",
  peso: "500",
  tamano: "10",
  cupo: "16",
  cuota: "30,50",
  fechaCierre: "2030-11-30",
  horaCierre: "18:00",
  formato: "llaves",
};

const editor = (eventId: string) => `/admin/eventos/${eventId}/categorias`;

const add = (p: Person, eventId: string, fields: Record<string, string | string[]> = {}) =>
  p.client.post(editor(eventId), { intent: "addCategory", ...SUMO, ...fields });

async function categoriesOf(eventId: string) {
  return server.db
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, eventId))
    .orderBy(asc(competitionCategories.position));
}

/** Everything a category post could change. */
async function state() {
  return {
    categories: await server.db
      .select()
      .from(competitionCategories)
      .orderBy(asc(competitionCategories.id)),
    audit: (await server.db.select({ id: auditLog.id }).from(auditLog)).length,
  };
}

/** The errors the page shows (by a field or above the list). */
function shownErrors(html: string): string[] {
  return [...html.matchAll(/<p class="field-error"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]!);
}

test("an organiser adds a category: stored as typed (fee in centavos, deadline in La Paz, coach by level), audited, shown on the event's page", async () => {
  const event = await competition();
  const reply = await add(organiser, event.id);
  expect(reply.status).toBe(302);
  expect(reply.location).toMatch(/\/categorias#categorias-title$/);
  const [sumo] = await categoriesOf(event.id);
  expect(sumo).toMatchObject({
    name: "Robot Sumo",
    level: "secundaria",
    minMembers: 2,
    maxMembers: 3,
    coachRequired: true,
    robotRules: "Robot autónomo.\nSin armas.",
    maxWeightGrams: 500,
    maxSizeCm: 10,
    capacity: 16,
    feeCents: 3050,
    format: "llaves",
    position: 1,
  });
  expect(sumo!.registrationClosesAt).toEqual(new Date("2030-11-30T22:00:00Z"));
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, "competition.category.create"));
  expect(entry).toMatchObject({ role: "organiser", itemId: event.id, actorName: "Olga Organiza" });
  expect(entry!.summary).toContain("«Robot Sumo»");

  // An open category, free and without limits: no coach unless asked.
  await add(admin, event.id, {
    nombre: "Seguidor de línea",
    nivel: "abierta",
    peso: "",
    tamano: "",
    cupo: "",
    cuota: "",
    reglas: "",
    formato: "tiempo",
  });
  const both = await categoriesOf(event.id);
  expect(both.map((c) => [c.name, c.coachRequired, c.feeCents, c.capacity])).toEqual([
    ["Robot Sumo", true, 3050, 16],
    ["Seguidor de línea", false, 0, null],
  ]);

  const page = text((await new BrowserClient(server.url).get(`/detalles/${event.id}`)).text);
  expect(page).toContain('id="categorias-title">Categorías (2)</h2>');
  expect(page).toContain(`href="#categoria-${sumo!.id}"`);
  for (const shown of [
    "Secundaria",
    "Llaves (eliminatorias)",
    "De 2 a 3 integrantes, con un entrenador adulto",
    "Bs 30,50",
    "sábado, 30 de noviembre de 2030",
    "Quedan 16 lugares de 16",
    "peso máximo 500 g · tamaño máximo 10 cm",
    "Robot autónomo.\nSin armas.",
    "Aún no hay equipos inscritos.",
    "Abierta",
    "Contra reloj",
    "sin entrenador obligatorio",
    "Gratis",
    "Sin límite de equipos",
  ])
    expect(page, shown).toContain(shown);
  // Light mode: the same section, without scripts.
  const light = await new BrowserClient(server.url).get(`/detalles/${event.id}`, {
    "Save-Data": "on",
  });
  expect(text(light.text)).toContain("Categorías (2)");
  expect(light.text).not.toContain('<script type="module"');
});

test("an organiser edits, reorders and deletes; each is audited and the page follows", async () => {
  const event = await competition();
  await add(organiser, event.id);
  await add(organiser, event.id, { nombre: "Micromouse", nivel: "universidad" });
  await add(organiser, event.id, { nombre: "Minisumo", nivel: "primaria" });
  const [sumo, mouse, mini] = await categoriesOf(event.id);

  const edited = await organiser.client.post(editor(event.id), {
    intent: "updateCategory",
    categoryId: mouse!.id,
    ...SUMO,
    nombre: "Micromouse clásico",
    nivel: "universidad",
    entrenador: "si",
    cuota: "",
  });
  expect(edited.status).toBe(302);
  const form = await organiser.client.get(`${editor(event.id)}?editar=${mouse!.id}`);
  expect(form.text).toContain('value="Micromouse clásico"');

  expect(
    (
      await organiser.client.post(editor(event.id), {
        intent: "moveCategory",
        categoryId: mini!.id,
        direccion: "subir",
      })
    ).status,
  ).toBe(302);
  expect((await categoriesOf(event.id)).map((c) => c.name)).toEqual([
    "Robot Sumo",
    "Minisumo",
    "Micromouse clásico",
  ]);
  expect((await categoriesOf(event.id)).find((c) => c.id === mouse!.id)).toMatchObject({
    coachRequired: true,
    feeCents: 0,
  });

  // The public page, cached for visitors, drops the category once it is deleted.
  expect(text((await new BrowserClient(server.url).get(`/detalles/${event.id}`)).text)).toContain(
    "Robot Sumo",
  );
  expect(
    (
      await organiser.client.post(editor(event.id), {
        intent: "deleteCategory",
        categoryId: sumo!.id,
      })
    ).status,
  ).toBe(302);
  expect((await categoriesOf(event.id)).map((c) => c.name)).toEqual([
    "Minisumo",
    "Micromouse clásico",
  ]);
  const actions = (
    await server.db.select().from(auditLog).where(eq(auditLog.itemId, event.id))
  ).map((e) => e.action);
  for (const a of ["create", "edit", "move", "delete"])
    expect(actions).toContain(`competition.category.${a}`);
  const page = text((await new BrowserClient(server.url).get(`/detalles/${event.id}`)).text);
  expect(page).not.toContain("Robot Sumo");
  expect(page.indexOf("Minisumo")).toBeLessThan(page.indexOf("Micromouse clásico"));
});

test("a visitor, a member, door staff and an organiser of another event are refused every change, and nothing changes", async () => {
  const event = await competition();
  await add(admin, event.id);
  const [sumo] = await categoriesOf(event.id);
  const before = await state();
  const visitor = new BrowserClient(server.url);
  const posts: Record<string, string>[] = [
    { intent: "addCategory", ...SUMO, nombre: "Intruso" },
    { intent: "updateCategory", categoryId: sumo!.id, ...SUMO, nombre: "Intruso" },
    { intent: "moveCategory", categoryId: sumo!.id, direccion: "bajar" },
    { intent: "deleteCategory", categoryId: sumo!.id },
  ];
  for (const body of posts) {
    const anonymous = await visitor.post(editor(event.id), body);
    expect(anonymous.status, body.intent).toBe(302);
    expect(anonymous.location, body.intent).toContain("/login");
    for (const p of [member, door, organiserElsewhere]) {
      const reply = await p.client.post(editor(event.id), body);
      expect(reply.status, `${p.user.nombreCompleto} ${body.intent}`).toBe(403);
    }
  }
  // The editor's page sends them home with the refusal.
  for (const p of [member, door, organiserElsewhere]) {
    const page = await p.client.get(editor(event.id));
    expect(page.status).toBe(302);
    expect(pathOf(page.location)).toBe("/inicio");
  }
  expect(await state()).toEqual(before);
});

test("bad input: each a Spanish message by its field, a 4xx, nothing changed, never a 500", async () => {
  const event = await competition();
  await add(organiser, event.id);
  const [sumo] = await categoriesOf(event.id);
  const other = await competition();
  await add(admin, other.id, { nombre: "Ajena" });
  const [ajena] = await categoriesOf(other.id);
  const before = await state();
  const cases: Array<[Record<string, string | string[]>, number, string]> = [
    [{ nombre: "" }, 400, CATEGORY_MESSAGES.nameMissing],
    [{ nombre: "   " }, 400, CATEGORY_MESSAGES.nameMissing],
    [{ nombre: "x".repeat(101) }, 400, CATEGORY_MESSAGES.nameTooLong],
    [{ nombre: "robot sumo" }, 409, CATEGORY_MESSAGES.nameTaken],
    [{ nivel: "kinder" }, 400, CATEGORY_MESSAGES.level],
    [{ formato: "" }, 400, CATEGORY_MESSAGES.format],
    [{ minimo: "4", maximo: "3" }, 400, CATEGORY_MESSAGES.minOverMax],
    [{ maximo: "11" }, 400, CATEGORY_MESSAGES.members],
    [{ minimo: "0" }, 400, CATEGORY_MESSAGES.members],
    [{ minimo: "-1" }, 400, CATEGORY_MESSAGES.members],
    [{ maximo: "tres" }, 400, CATEGORY_MESSAGES.members],
    [{ minimo: "2.5" }, 400, CATEGORY_MESSAGES.members],
    [{ entrenador: "quizas" }, 400, CATEGORY_MESSAGES.coach],
    [{ reglas: "r".repeat(5001) }, 400, CATEGORY_MESSAGES.rulesTooLong],
    [{ peso: "-5" }, 400, CATEGORY_MESSAGES.weight],
    [{ peso: "medio kilo" }, 400, CATEGORY_MESSAGES.weight],
    [{ tamano: "0" }, 400, CATEGORY_MESSAGES.size],
    [{ tamano: "1001" }, 400, CATEGORY_MESSAGES.size],
    [{ cupo: "0" }, 400, CATEGORY_MESSAGES.capacity],
    [{ cupo: "muchos" }, 400, CATEGORY_MESSAGES.capacity],
    [{ cuota: "30,505" }, 400, CATEGORY_MESSAGES.fee],
    [{ cuota: "-30" }, 400, CATEGORY_MESSAGES.fee],
    [{ cuota: "treinta" }, 400, CATEGORY_MESSAGES.fee],
    [{ cuota: "100.000,01" }, 400, CATEGORY_MESSAGES.feeTooHigh],
    [{ fechaCierre: "2030-02-30" }, 400, CATEGORY_MESSAGES.deadlineDate],
    [{ fechaCierre: "30/11/2030" }, 400, CATEGORY_MESSAGES.deadlineDate],
    [{ fechaCierre: "" }, 400, CATEGORY_MESSAGES.deadlineDate],
    [{ horaCierre: "25:00" }, 400, CATEGORY_MESSAGES.deadlineTime],
    [{ horaCierre: "18h" }, 400, CATEGORY_MESSAGES.deadlineTime],
    [{ nombre: ["Uno", "Dos"] }, 400, CATEGORY_MESSAGES.nameMissing],
    [{ cupo: ["1", "2"] }, 400, CATEGORY_MESSAGES.capacity],
  ];
  for (const [fields, status, message] of cases) {
    const label = JSON.stringify(fields).slice(0, 60);
    const reply = await add(organiser, event.id, fields);
    expect(reply.status, label).toBe(status);
    expect(shownErrors(reply.text), label).toContain(message);
    // The edit form refuses the same (its own name is not taken).
    if (message === CATEGORY_MESSAGES.nameTaken) continue;
    const edit = await organiser.client.post(editor(event.id), {
      intent: "updateCategory",
      categoryId: sumo!.id,
      ...SUMO,
      ...fields,
    });
    expect(edit.status, `edición ${label}`).toBe(status);
    expect(shownErrors(edit.text), `edición ${label}`).toContain(message);
  }
  // Unknown and malformed categories and directions.
  for (const categoryId of [randomUUID(), "123", "", "x'; drop table events;--"]) {
    for (const body of [
      { intent: "updateCategory", categoryId, ...SUMO, nombre: "Nuevo" } as Record<string, string>,
      { intent: "moveCategory", categoryId, direccion: "subir" },
      { intent: "deleteCategory", categoryId },
    ]) {
      const reply = await organiser.client.post(editor(event.id), body);
      expect(reply.status, `${body.intent} ${categoryId}`).toBe(404);
      expect(shownErrors(reply.text)).toContain(CATEGORY_MESSAGES.notFound);
    }
  }
  const wrongWay = await organiser.client.post(editor(event.id), {
    intent: "moveCategory",
    categoryId: sumo!.id,
    direccion: "arriba",
  });
  expect(wrongWay.status).toBe(400);
  expect(shownErrors(wrongWay.text)).toContain(CATEGORY_MESSAGES.move);

  // A category of another event is not this event's.
  const foreign = await organiser.client.post(editor(event.id), {
    intent: "deleteCategory",
    categoryId: ajena!.id,
  });
  expect(foreign.status).toBe(404);
  // An unknown intent, a malformed body, no body.
  const unknown = await organiser.client.post(editor(event.id), { intent: "borrarTodo" });
  expect(unknown.status).toBe(400);
  expect(unknown.text).toContain("Acción desconocida.");
  for (const [body, type] of [
    ['{"intent":"addCategory"}', "application/json"],
    ["--roto\r\nnada", "multipart/form-data; boundary=otro"],
    ["", "text/plain"],
  ] as const) {
    const reply = await organiser.client.request("POST", editor(event.id), {
      body,
      headers: { "Content-Type": type },
    });
    expect(reply.status, type).toBe(400);
    expect(reply.text, type).toMatch(/formulario/i);
  }
  expect(await state()).toEqual(before);
});

test("unknown and malformed events: a 404 page for admins, nothing changed", async () => {
  const before = await state();
  for (const eventId of [randomUUID(), "123", "%27%3B--"]) {
    const reply = await add(admin, eventId);
    expect(reply.status, eventId).toBe(404);
    expect(reply.text, eventId).toContain("Evento no encontrado.");
    expect((await admin.client.get(editor(eventId))).status, eventId).toBe(404);
  }
  // A member is refused before being told whether the event exists.
  expect((await add(member, randomUUID())).status).toBe(403);
  expect(await state()).toEqual(before);
});

test("the event's deletion takes its categories", async () => {
  const event = await competition();
  await add(admin, event.id);
  expect(await categoriesOf(event.id)).toHaveLength(1);
  await deleteEvent(server.db, admin.user, event.id);
  expect(await categoriesOf(event.id)).toEqual([]);
});

async function competitionForm(rows: Array<Record<string, string>>) {
  const content = (await loadSiteSections(server.db)).competition;
  const values = valuesFromSection("competition", {
    ...content,
    events: rows,
  }) as Record<string, string | string[]>;
  return { intent: "save", section: "competition", ...values };
}

test("/events: an item whose competition an admin picked links to its page and its categories instead of 'Pendiente'; an unknown event is refused", async () => {
  const event = await competition("Clash Robotics Edición 2030");
  await add(admin, event.id, { nombre: "Robot Sumo" });
  await add(admin, event.id, { nombre: "Micromouse", nivel: "universidad" });
  const [sumo, mouse] = await categoriesOf(event.id);
  const pending = { name: "Competencia de Colegios", when: "", href: "", eventId: "" };
  const saved = await admin.client.post(
    "/admin/sitio",
    await competitionForm([
      { name: "Clash Robotics", when: "6 de diciembre", href: "", eventId: event.id },
      pending,
    ]),
  );
  expect(saved.status).toBe(302);
  const page = text((await new BrowserClient(server.url).get("/events")).text);
  expect(page).toContain(`href="/detalles/${event.id}"`);
  expect(page).toContain(`href="/detalles/${event.id}#categoria-${sumo!.id}">Robot Sumo</a>`);
  expect(page).toContain(`href="/detalles/${event.id}#categoria-${mouse!.id}">Micromouse</a>`);
  // The other item is still pending.
  expect(page).toMatch(
    /Competencia de Colegios<\/span><span class="competition-item-when badge">Pendiente/,
  );

  const before = await server.db
    .select()
    .from(siteSections)
    .where(eq(siteSections.section, "competition"));
  for (const eventId of [randomUUID(), "123"]) {
    const reply = await admin.client.post(
      "/admin/sitio",
      await competitionForm([{ name: "Clash", when: "", href: "", eventId }]),
    );
    expect(reply.status, eventId).toBe(400);
    expect(reply.text).toContain(
      "«Competencia en el sitio» debe ser uno de los eventos de la lista.",
    );
  }
  expect(
    (
      await member.client.post(
        "/admin/sitio",
        await competitionForm([{ name: "Clash", when: "", href: "", eventId: event.id }]),
      )
    ).status,
  ).toBe(403);
  expect(
    await server.db.select().from(siteSections).where(eq(siteSections.section, "competition")),
  ).toEqual(before);

  // Once the event is deleted, the item is pending again.
  await deleteEvent(server.db, admin.user, event.id);
  const after = text((await new BrowserClient(server.url).get("/events")).text);
  expect(after).not.toContain(`/detalles/${event.id}`);
  expect(after).toMatch(
    /Clash Robotics<\/span><span class="competition-item-when badge">6 de diciembre/,
  );
});
