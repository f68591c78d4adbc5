// Roles over HTTP (issue 32): one request per mutation, from a person whose role covers it and
// from one whose role does not, proves each route asks the model (never a 500); the event page
// and member details grant and revoke; a role taken back refuses the holder's next request; the
// audit log and its page, filters and CSV; roles and log entries in the member's data download,
// and the log after an account is deleted.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkInCode } from "~/attendance/check-in.server";
import { auditLog, competitionCategories, users, type User } from "~/db/schema.server";
import { getSessionUser } from "~/members/session.server";
import { joinEvent } from "~/events/participation.server";
import { zonedDateTime } from "~/kernel/time";
import { MESSAGES } from "~/messages";
import { grantRole } from "~/members/roles.server";
import { pathOf, type BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import {
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  eventForm,
  landOn,
} from "../helpers/events";
import { shown } from "../helpers/shown";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person; // of `soon`
let elsewhere: Person; // organiser of `other`
let door: Person; // door staff of `soon`
let editor: Person;
let participant: Person;
let soon: { id: string };
let other: { id: string };

/** An event starting in an hour: its door staff are within their hours. */
async function eventSoon(name: string) {
  const local = zonedDateTime(new Date(Date.now() + 3_600_000), "America/La_Paz");
  return createTestEvent(server.db, admin.user, {
    nombreEvento: name,
    fechaEvento: local.date,
    horaEvento: local.time,
  });
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  soon = await eventSoon("Feria de robótica");
  other = await eventSoon("Torneo de sumo");
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  elsewhere = await createMember(server, `otra-${randomUUID()}@example.com`, "Otto Otro");
  door = await createMember(server, `puerta-${randomUUID()}@example.com`, "Pedro Puerta");
  editor = await createMember(server, `editor-${randomUUID()}@example.com`, "Elena Edita");
  participant = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  await joinEvent(server.db, participant.user, soon.id);
  const give = (p: Person, kind: string, eventId?: string) =>
    grantRole(server.db, admin.user, { userId: p.user.id, kind, eventId });
  await give(organiser, "organiser", soon.id);
  await give(elsewhere, "organiser", other.id);
  await give(door, "door", soon.id);
  await give(editor, "editor");
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const image = "https://example.com/galeria.png";

/** Each mutation's request: the path and form; who may (the role in scope); who may not. */
function mutations() {
  const at = `/admin/eventos/${soon.id}`;
  const update = eventForm("update", { nombreEvento: "Feria de robótica" });
  update.set("eventId", soon.id);
  const local = zonedDateTime(new Date(Date.now() + 3_600_000), "America/La_Paz");
  update.set("fechaEvento", local.date);
  update.set("horaEvento", local.time);
  return [
    { name: "editar el evento", path: at, form: update, may: organiser, mayNot: elsewhere },
    {
      name: "agregar a la galería",
      path: at,
      form: { intent: "galleryAdd", eventId: soon.id, url: image },
      may: organiser,
      mayNot: door,
    },
    {
      name: "horario de puerta",
      path: at,
      form: { intent: "doorWindow", antes: "3", despues: "6" },
      may: organiser,
      mayNot: editor,
    },
    {
      name: "dar puerta desde la gestión",
      path: at,
      form: { intent: "grantRole", email: participant.user.email, kind: "door" },
      may: organiser,
      mayNot: door,
    },
    {
      name: "quitar puerta desde la página del evento",
      path: `/detalles/${soon.id}`,
      form: { intent: "revokeRole", userId: participant.user.id, kind: "door" },
      may: organiser,
      mayNot: elsewhere,
    },
    {
      name: "registro de entrada por código",
      path: `${at}/registro/datos`,
      form: { codigo: checkInCode(TEST_SESSION_SECRET, soon.id, participant.user.id) },
      may: door,
      mayNot: elsewhere,
    },
    {
      name: "marcar presente",
      path: `${at}/participantes`,
      form: { intent: "checkIn", userId: participant.user.id },
      may: organiser,
      mayNot: elsewhere,
    },
    {
      name: "mensaje a participantes",
      path: `${at}/participantes`,
      form: { intent: "sendMessage", asunto: "Aviso", mensaje: "Llegad temprano." },
      may: organiser,
      mayNot: door,
    },
    {
      name: "publicar una nota",
      path: "/projectsandnotes",
      form: { intent: "createNote", titulo: "Nota del editor", texto: "Texto.", enlaceImagen: "" },
      may: editor,
      mayNot: organiser,
    },
    {
      name: "dar un rol desde el panel",
      path: "/admin",
      form: { intent: "grantRole", userId: participant.user.id, kind: "editor" },
      may: admin,
      mayNot: organiser,
    },
    {
      name: "publicar un evento",
      path: "/admin",
      form: eventForm("publish", { nombreEvento: "Evento nuevo" }),
      may: admin,
      mayNot: organiser,
    },
    {
      name: "hacer administrador",
      path: "/admin",
      form: { intent: "grantAdmin", userId: participant.user.id },
      may: null,
      mayNot: editor,
    },
  ];
}

async function auditRows() {
  return server.db.select().from(auditLog);
}

test("one request per mutation: the role in scope may, another role may not (403, nothing written), never a 500", async () => {
  for (const m of mutations()) {
    const before = (await auditRows()).length;
    const refused = await m.mayNot.client.post(m.path, m.form as never);
    expect([m.name, refused.status]).toEqual([m.name, 403]);
    expect((await auditRows()).length, m.name).toBe(before);
    if (!m.may) continue;
    const done = await m.may.client.post(
      m.path,
      (await shown(server.db, m.form as never)) as never,
    );
    expect([m.name, done.status < 400]).toEqual([m.name, true]);
    expect((await auditRows()).length, m.name).toBeGreaterThan(before);
  }
});

test("the management page is for the event's organisers and admins; other roles and members are sent away", async () => {
  const page = await organiser.client.get(`/admin/eventos/${soon.id}/personal`);
  expect(page.status).toBe(200);
  expect(page.text).toContain("Gestionar: Feria de robótica");
  expect(page.text).toContain("Personal del evento");
  expect((await admin.client.get(`/admin/eventos/${soon.id}`)).status).toBe(200);
  for (const p of [elsewhere, door, editor, participant]) {
    const away = await p.client.get(`/admin/eventos/${soon.id}`);
    expect(away.status).toBe(302);
    expect(pathOf(away.location)).toBe("/inicio");
  }
  // The admin panel itself stays for admins.
  const panel = await organiser.client.get("/admin");
  expect(pathOf(panel.location)).toBe("/inicio");
  expect(alertsIn((await landOn(organiser.client, panel)).text)).toEqual([MESSAGES.accessDenied]);
  // Unknown and malformed events: 404 for admins, refused for the rest.
  expect((await admin.client.get(`/admin/eventos/${randomUUID()}`)).status).toBe(404);
  expect((await admin.client.get("/admin/eventos/no-es-un-id")).status).toBe(404);
  expect((await organiser.client.get(`/admin/eventos/${randomUUID()}`)).status).toBe(302);
});

test("door staff see the check-in page of their event only; editors /projectsandnotes only", async () => {
  expect((await door.client.get(`/admin/eventos/${soon.id}/registro`)).status).toBe(200);
  expect((await door.client.get(`/admin/eventos/${other.id}/registro`)).status).toBe(302);
  expect((await door.client.get(`/admin/eventos/${soon.id}/participantes`)).status).toBe(302);
  expect((await door.client.get(`/admin/eventos/${soon.id}/participantes.csv`)).status).toBe(302);
  expect((await organiser.client.get(`/admin/eventos/${soon.id}/participantes.csv`)).status).toBe(
    200,
  );
  expect((await editor.client.get("/projectsandnotes")).status).toBe(200);
  expect((await editor.client.get("/admin/sitio")).status).toBe(302);
  expect((await organiser.client.get("/projectsandnotes")).status).toBe(302);
});

test("the user menu shows what each person's roles open", async () => {
  const menu = async (p: Person) => (await p.client.get("/profile")).text;
  const org = await menu(organiser);
  expect(org).toContain("Mis eventos a cargo");
  expect(org).toContain(`/admin/eventos/${soon.id}/registro`);
  expect(org).not.toContain(">Notas y Proyectos<");
  const ed = await menu(editor);
  expect(ed).toContain(">Notas y Proyectos<");
  expect(ed).not.toContain("Mis eventos a cargo");
  const plain = await menu(participant);
  expect(plain).not.toContain("Mis eventos a cargo");
  expect(plain).not.toContain("Registro de entrada<");
  // The profile lists the roles.
  expect(org).toContain("Mis roles");
  expect(org).toContain("Organización del evento — Feria de robótica");
});

test("an admin grants and revokes from a member's details and from the event's page; bad input is a clear message", async () => {
  const somebody = await createMember(server, `alguien-${randomUUID()}@example.com`, "Alguien");
  const granted = await admin.client.post(
    "/admin",
    await shown(server.db, {
      intent: "grantRole",
      userId: somebody.user.id,
      kind: "organiser",
      eventId: other.id,
    }),
  );
  expect(granted.status).toBe(302);
  const details = await admin.client.get(`/admin?usuario=${somebody.user.id}`);
  expect(details.text).toContain("Organización del evento — Torneo de sumo");
  const revoked = await admin.client.post(
    `/detalles/${other.id}`,
    await shown(server.db, {
      intent: "revokeRole",
      userId: somebody.user.id,
      kind: "organiser",
    }),
  );
  expect(revoked.status).toBe(302);
  expect((await admin.client.get(`/admin?usuario=${somebody.user.id}`)).text).not.toContain(
    "Organización del evento — Torneo de sumo",
  );

  const before = (await auditRows()).length;
  const bad: Array<[string, Record<string, string>, number, string]> = [
    ["/admin", { intent: "grantRole", userId: randomUUID(), kind: "editor" }, 404, ""],
    [
      "/admin",
      { intent: "grantRole", userId: somebody.user.id, kind: "door", eventId: randomUUID() },
      404,
      "",
    ],
    [
      "/admin",
      { intent: "grantRole", userId: somebody.user.id, kind: "juez" },
      400,
      MESSAGES.roleUnknown,
    ],
    [
      "/admin",
      { intent: "grantRole", userId: somebody.user.id, kind: "door" },
      400,
      MESSAGES.roleEventMissing,
    ],
    [
      `/detalles/${soon.id}`,
      { intent: "grantRole", email: "nadie@example.com", kind: "door" },
      404,
      MESSAGES.roleMemberNotFound,
    ],
    [
      `/detalles/${soon.id}`,
      { intent: "grantRole", email: somebody.user.email, kind: "tesorero" },
      400,
      MESSAGES.roleUnknown,
    ],
    [
      `/admin/eventos/${soon.id}`,
      { intent: "doorWindow", antes: "-1", despues: "abc" },
      400,
      "Las horas deben ser un número entero entre 0 y 72.",
    ],
    [`/admin/eventos/${soon.id}`, { intent: "nada" }, 400, MESSAGES.unknownAction],
  ];
  for (const [path, form, status, message] of bad) {
    const reply = await admin.client.post(path, form);
    expect([path, form.kind ?? form.intent, reply.status]).toEqual([
      path,
      form.kind ?? form.intent,
      status,
    ]);
    if (message) expect(reply.text).toContain(message.replace(/'/g, "&#x27;"));
  }
  expect((await auditRows()).length).toBe(before);
  // An organiser cannot give organisers, only door staff.
  const refused = await organiser.client.post(
    `/detalles/${soon.id}`,
    await shown(server.db, {
      intent: "grantRole",
      email: somebody.user.email,
      kind: "organiser",
    }),
  );
  expect(refused.status).toBe(403);
});

test("a role taken back while its holder has the page open: their next action is refused in Spanish, nothing changes", async () => {
  const temp = await createMember(server, `temp-${randomUUID()}@example.com`, "Tomás Temporal");
  await grantRole(server.db, admin.user, {
    userId: temp.user.id,
    kind: "organiser",
    eventId: soon.id,
  });
  expect((await temp.client.get(`/admin/eventos/${soon.id}`)).status).toBe(200);
  await admin.client.post(
    `/admin/eventos/${soon.id}`,
    await shown(server.db, {
      intent: "revokeRole",
      userId: temp.user.id,
      kind: "organiser",
    }),
  );
  const before = (await auditRows()).length;
  const next = await temp.client.post(`/admin/eventos/${soon.id}`, {
    intent: "doorWindow",
    antes: "1",
    despues: "1",
  });
  expect(next.status).toBe(403);
  expect(next.text).toContain("Acceso denegado");
  expect((await auditRows()).length).toBe(before);
});

test("the audit log: who, under which role, what, on which item, when; the admin page filters, pages and downloads CSV", async () => {
  const rows = await auditRows();
  const check = rows.find((r) => r.action === "checkIn" && r.itemId === soon.id);
  expect(check).toMatchObject({ actorId: expect.any(String), itemKind: "event" });
  const edit = rows.find((r) => r.action === "event.edit" && r.itemId === soon.id);
  expect(edit).toMatchObject({
    role: "organiser",
    actorId: organiser.user.id,
    actorName: "Olga Organiza",
  });
  expect(edit!.summary).toBe("Editó el evento «Feria de robótica»");

  const page = await admin.client.get("/admin/auditoria");
  expect(page.status).toBe(200);
  expect(page.text).toContain("Registro de auditoría");
  const byPerson = await admin.client.get("/admin/auditoria?persona=olga&tipo=event");
  expect(byPerson.text).toContain("Editó el evento «Feria de robótica»");
  expect(byPerson.text).not.toContain("Otorgó");
  const byItem = await admin.client.get(
    `/admin/auditoria?elemento=${soon.id}&desde=2020-01-01&hasta=2099-12-31`,
  );
  expect(byItem.text).toContain("Registró la entrada de Ana Quispe");
  const csv = await admin.client.get("/admin/auditoria.csv?persona=olga");
  expect(csv.headers.get("content-type")).toContain("text/csv");
  expect(csv.text).toContain('"Fecha","Persona","Rol","Acción"');
  expect(csv.text).toContain('"Olga Organiza","Organización del evento","event.edit"');

  for (const query of [
    "tipo=nada",
    "desde=2025-02-30",
    "persona=" + "x".repeat(200),
    "elemento=%00",
  ]) {
    const refused = await admin.client.get(`/admin/auditoria?${query}`);
    expect([query, refused.status]).toEqual([query, 400]);
    expect((await admin.client.get(`/admin/auditoria.csv?${query}`)).status).toBe(400);
  }
  expect((await admin.client.get("/admin/auditoria?pagina=9999")).status).toBe(200);
  expect(pathOf((await organiser.client.get("/admin/auditoria")).location)).toBe("/inicio");
  expect((await organiser.client.get("/admin/auditoria.csv")).status).toBe(302);
});

test("the member's data download has their roles and their own audit entries; deleting the account leaves 'cuenta eliminada'", async () => {
  const person = await createMember(server, `borrar-${randomUUID()}@example.com`, "Berta Borra");
  await grantRole(server.db, admin.user, {
    userId: person.user.id,
    kind: "organiser",
    eventId: other.id,
  });
  await person.client.post(`/admin/eventos/${other.id}`, {
    intent: "doorWindow",
    antes: "2",
    despues: "2",
  });
  const download = JSON.parse((await person.client.get("/profile/datos")).text) as {
    roles: Array<{ kind: string; eventId: string | null }>;
    auditoria: Array<{ action: string; summary: string }>;
  };
  expect(download.roles).toEqual([
    expect.objectContaining({ kind: "organiser", eventId: other.id }),
  ]);
  expect(download.auditoria.map((a) => a.action)).toEqual(["event.door.window"]);

  // An admin's entry that names her.
  const before = await auditRows();
  const aboutHer = before.filter((r) => r.summary.includes("Berta Borra"));
  expect(aboutHer.length).toBeGreaterThan(0);

  const deleted = await person.client.post("/profile", {
    intent: "deleteAccount",
    confirmar: "eliminar",
  });
  expect(deleted.status).toBeLessThan(400);
  const [gone] = await server.db.select().from(users).where(eq(users.id, person.user.id));
  expect(gone).toBeUndefined();
  const after = await auditRows();
  const hers = after.filter((r) => r.id === before.find((b) => b.actorId === person.user.id)?.id);
  expect(hers[0]).toMatchObject({ actorId: null, actorName: "cuenta eliminada" });
  for (const row of after) {
    expect(row.summary).not.toContain("Berta Borra");
    expect(row.summary).not.toContain(person.user.email);
  }
});

test("an organiser gives a judge one category on the event's management page, with the category picked in the form; the judge's next request carries it; 'Quitar' takes it back; a missing or foreign category is a message next to the form and changes nothing", async () => {
  const [sumo] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: soon.id,
      position: 1,
      name: "Sumo 3 kg",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "llaves",
    })
    .returning({ id: competitionCategories.id });
  const [foreign] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: other.id,
      position: 1,
      name: "Minisumo",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "llaves",
    })
    .returning({ id: competitionCategories.id });
  const judge = await createMember(server, `jurado-${randomUUID()}@example.com`, "Julia Jueza");
  const at = `/admin/eventos/${soon.id}/personal`;
  const page = (await organiser.client.get(at)).text;
  expect(page).toContain('<option value="judge">Jurado</option>');
  expect(page).toContain("Categoría que juzgará");
  expect(page).toContain(`<option value="${sumo!.id}">Sumo 3 kg</option>`);

  const before = (await auditRows()).length;
  for (const [categoryId, message] of [
    ["", MESSAGES.roleCategoryMissing],
    [foreign!.id, MESSAGES.roleCategoryNotFound],
    ["no-es-un-id", MESSAGES.roleCategoryNotFound],
  ]) {
    const reply = await organiser.client.post(
      at,
      await shown(server.db, {
        intent: "grantRole",
        email: judge.user.email,
        kind: "judge",
        categoryId: categoryId!,
      }),
    );
    expect([categoryId, reply.status]).toEqual([categoryId, 400]);
    expect(reply.text).toContain(message!);
  }
  expect((await auditRows()).length).toBe(before);
  // Door staff do not give judges.
  const refused = await door.client.post(
    at,
    await shown(server.db, {
      intent: "grantRole",
      email: judge.user.email,
      kind: "judge",
      categoryId: sumo!.id,
    }),
  );
  expect(refused.status).toBe(403);

  const granted = await organiser.client.post(
    at,
    await shown(server.db, {
      intent: "grantRole",
      email: judge.user.email,
      kind: "judge",
      categoryId: sumo!.id,
    }),
  );
  expect(granted.status).toBe(302);
  expect((await organiser.client.get(at)).text).toContain("Jurado: Sumo 3 kg");
  const request = new Request(server.url, { headers: { Cookie: judge.client.cookieHeader() } });
  const seen = await getSessionUser(server.db, request, { secure: false });
  expect(seen!.grants).toEqual([{ kind: "judge", eventId: soon.id, categoryId: sumo!.id }]);
  // The event's page shows the team to its admins too.
  expect((await admin.client.get(`/detalles/${soon.id}`)).text).toContain("Jurado: Sumo 3 kg");

  const revoked = await organiser.client.post(
    at,
    await shown(server.db, {
      intent: "revokeRole",
      userId: judge.user.id,
      kind: "judge",
      categoryId: sumo!.id,
    }),
  );
  expect(revoked.status).toBe(302);
  expect((await getSessionUser(server.db, request, { secure: false }))!.grants).toEqual([]);
});
