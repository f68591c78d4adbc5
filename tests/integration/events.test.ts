// Publishing, editing and deleting events, galleries, the event page, /eventos and the .ics file.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { rowsOf } from "~/db/rows.server";
import { eventImages, events, participations, users, type User } from "~/db/schema.server";
import { listEventsPage, watchEventEnds } from "~/events/event.server";
import { joinEvent } from "~/events/participation.server";
import { grantRole } from "~/members/roles.server";
import { failOnConsoleError } from "../helpers/console";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import {
  addImage,
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  eventFieldError,
  eventForm,
  landOn,
  snapshot,
  VALID_EVENT,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
let member: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  member = await createMember(server);
});
afterAll(() => server?.close());

failOnConsoleError();

const html = (text: string) =>
  text.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

// ——— Permissions ———

/** Every event action an admin can take, as a form, against a fresh event. */
async function everyAction() {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Permisos ${randomUUID()}`,
  });
  const image = await addImage(server.db, admin.user, event.id, "https://example.com/a.png");
  const target = await createMember(server);
  return {
    event,
    target,
    actions: {
      publish: eventForm("publish", { nombreEvento: "Nuevo por intruso" }),
      update: eventForm("update", { nombreEvento: "Cambiado por intruso" }, [], undefined, {
        eventId: event.id,
      }),
      delete: new URLSearchParams({ intent: "delete", eventId: event.id }),
      galleryAdd: new URLSearchParams({
        intent: "galleryAdd",
        eventId: event.id,
        url: "https://example.com/b.png",
      }),
      galleryRemove: new URLSearchParams({
        intent: "galleryRemove",
        eventId: event.id,
        imageId: image.id,
      }),
      grantAdmin: new URLSearchParams({ intent: "grantAdmin", userId: target.user.id, visto: "0" }),
      revokeAdmin: new URLSearchParams({
        intent: "revokeAdmin",
        userId: admin.user.id,
        visto: "1",
      }),
    } as Record<string, URLSearchParams>,
  };
}

test("a visitor is sent to /login by every event action, and nothing changes", async () => {
  const { actions } = await everyAction();
  const before = await snapshot(server.db);
  const visitor = new BrowserClient(server.url);
  for (const [intent, form] of Object.entries(actions)) {
    const reply = await visitor.post("/admin", form);
    expect(reply.status, intent).toBe(302);
    expect(pathOf(reply.location), intent).toBe("/login?redirectTo=%2Fadmin");
  }
  expect(await snapshot(server.db)).toEqual(before);
});

test("a member gets 403 'Acceso denegado' from every event action, and nothing changes", async () => {
  const { actions } = await everyAction();
  const before = await snapshot(server.db);
  for (const [intent, form] of Object.entries(actions)) {
    const reply = await member.client.post("/admin", form);
    expect(reply.status, intent).toBe(403);
    expect(reply.text, intent).toContain(MESSAGES.accessDenied);
  }
  expect(await snapshot(server.db)).toEqual(before);
});

test("an admin can take every event action, each with its message of §8", async () => {
  const { event, target, actions } = await everyAction();
  const expectFlash = async (intent: string, message: string) => {
    const reply = await admin.client.post("/admin", actions[intent]!);
    expect(reply.status, intent).toBe(302);
    const page = await landOn(admin.client, reply);
    expect(alertsIn(page.text), intent).toEqual([message]);
  };
  await expectFlash("publish", MESSAGES.eventPublished);
  expect(
    await server.db.select().from(events).where(eq(events.nombreEvento, "Nuevo por intruso")),
  ).toHaveLength(1);
  await expectFlash("update", MESSAGES.eventUpdated);
  expect(
    (await server.db.select().from(events).where(eq(events.id, event.id)))[0]!.nombreEvento,
  ).toBe("Cambiado por intruso");
  await expectFlash("galleryAdd", MESSAGES.galleryImageAdded);
  await expectFlash("galleryRemove", MESSAGES.galleryImageRemoved);
  expect(
    (await server.db.select().from(eventImages).where(eq(eventImages.eventId, event.id))).map(
      (i) => i.url,
    ),
  ).toEqual(["https://example.com/b.png"]);
  await expectFlash("grantAdmin", MESSAGES.adminGranted);
  expect(
    (await server.db.select().from(users).where(eq(users.id, target.user.id)))[0]!.isAdmin,
  ).toBe(true);
  await expectFlash("delete", MESSAGES.eventDeleted);
  expect(await server.db.select().from(events).where(eq(events.id, event.id))).toHaveLength(0);
  expect(
    await server.db.select().from(eventImages).where(eq(eventImages.eventId, event.id)),
  ).toHaveLength(0);
});

test("the model refuses a member even when called directly", async () => {
  const { createEvent } = await import("~/events/event-commands.server");
  const { EventSchema } = await import("~/events/schemas");
  await expect(
    createEvent(
      server.db,
      member.user,
      EventSchema.parse({ ...VALID_EVENT, enlacesVirtuales: [] }),
      "America/La_Paz",
    ),
  ).rejects.toThrow(MESSAGES.accessDenied);
});

test("a member who opens /admin goes to /inicio with 'Acceso denegado. No eres un administrador.'; a visitor goes to /login", async () => {
  const reply = await member.client.get("/admin");
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/inicio");
  const page = await landOn(member.client, reply);
  expect(alertsIn(page.text)).toEqual([MESSAGES.accessDenied]);
  const visitor = await new BrowserClient(server.url).get("/admin");
  expect(pathOf(visitor.location)).toBe("/login?redirectTo=%2Fadmin");
});

// ——— Bad input ———

const REQUIRED: [string, string][] = [
  ["nombreEvento", "Escribe el nombre del evento."],
  ["ubicacionEvento", "Escribe la ubicación del evento (país, ciudad)."],
  ["fechaEvento", "Escribe la fecha del evento."],
  ["horaEvento", "Escribe la hora del evento."],
  ["imagenEnlace", "Escribe el enlace de la imagen del evento."],
  ["descripcion", "Escribe la descripción del evento."],
];

const BAD: { title: string; form: () => URLSearchParams; field: string; message: string }[] = [
  ...REQUIRED.map(([field, message]) => ({
    title: `no ${field}`,
    form: () => eventForm("publish", {}, [], field as never),
    field,
    message,
  })),
  ...REQUIRED.map(([field, message]) => ({
    title: `${field} of spaces`,
    form: () => eventForm("publish", { [field]: "   " }),
    field,
    message,
  })),
  {
    title: "no tipoEvento",
    form: () => eventForm("publish", {}, [], "tipoEvento"),
    field: "tipoEvento",
    message: "Selecciona un tipo de evento de la lista.",
  },
  {
    title: "an unknown type",
    form: () => eventForm("publish", { tipoEvento: "Presencialísimo" }),
    field: "tipoEvento",
    message: "Selecciona un tipo de evento de la lista.",
  },
  {
    title: "an image that is not a URL",
    form: () => eventForm("publish", { imagenEnlace: "imagen.png" }),
    field: "imagenEnlace",
    message: "El enlace de la imagen debe ser una URL válida que empiece con http:// o https://.",
  },
  {
    title: "a javascript: image",
    form: () => eventForm("publish", { imagenEnlace: "javascript:alert(1)" }),
    field: "imagenEnlace",
    message: "El enlace de la imagen debe ser una URL válida que empiece con http:// o https://.",
  },
  {
    title: "a data: image",
    form: () => eventForm("publish", { imagenEnlace: "data:image/png;base64,AAAA" }),
    field: "imagenEnlace",
    message: "El enlace de la imagen debe ser una URL válida que empiece con http:// o https://.",
  },
  {
    title: "a Virtual event with no link",
    form: () => eventForm("publish", { tipoEvento: "Virtual" }, ["", "  "]),
    field: "enlacesVirtuales",
    message: "Un evento virtual o híbrido necesita al menos un enlace del evento.",
  },
  {
    title: "a Hibrido event with a javascript: link",
    form: () =>
      eventForm("publish", { tipoEvento: "Hibrido" }, [
        "https://meet.example.com/a",
        "javascript:alert(1)",
      ]),
    field: "enlacesVirtuales",
    message: "Cada enlace debe ser una URL válida que empiece con http:// o https://.",
  },
  {
    title: "a Virtual event with a link that is not a URL",
    form: () => eventForm("publish", { tipoEvento: "Virtual" }, ["meet de la comunidad"]),
    field: "enlacesVirtuales",
    message: "Cada enlace debe ser una URL válida que empiece con http:// o https://.",
  },
  {
    title: "the date 2025-02-30",
    form: () => eventForm("publish", { fechaEvento: "2025-02-30" }),
    field: "fechaEvento",
    message: "La fecha del evento no es una fecha válida.",
  },
  {
    title: "the date 06/12/2025",
    form: () => eventForm("publish", { fechaEvento: "06/12/2025" }),
    field: "fechaEvento",
    message: "La fecha del evento no es una fecha válida.",
  },
  {
    title: "the time 25:00",
    form: () => eventForm("publish", { horaEvento: "25:00" }),
    field: "horaEvento",
    message: "La hora del evento no es válida (usa HH:MM, de 00:00 a 23:59).",
  },
  {
    title: "the time 7pm",
    form: () => eventForm("publish", { horaEvento: "7pm" }),
    field: "horaEvento",
    message: "La hora del evento no es válida (usa HH:MM, de 00:00 a 23:59).",
  },
  {
    title: "a name of 201 characters",
    form: () => eventForm("publish", { nombreEvento: "N".repeat(201) }),
    field: "nombreEvento",
    message: "Máximo 200 caracteres.",
  },
  {
    title: "the name sent twice",
    form: () => {
      const f = eventForm("publish");
      f.append("nombreEvento", "Otro");
      return f;
    },
    field: "nombreEvento",
    message: "Este campo tiene un valor no válido.",
  },
];

test.each(BAD)(
  "publishing refuses $title with a Spanish message next to the field, and stores nothing",
  async ({ form, field, message }) => {
    const before = await snapshot(server.db);
    const reply = await admin.client.post("/admin", form());
    expect(reply.status).toBe(400);
    expect(html(eventFieldError(reply.text, field) ?? "")).toBe(message);
    expect(await snapshot(server.db)).toEqual(before);
  },
);

test("editing refuses bad input the same way and leaves the event as it was", async () => {
  const event = await createTestEvent(server.db, admin.user);
  const before = await snapshot(server.db);
  for (const { form, field, message } of BAD) {
    const f = form();
    f.set("intent", "update");
    f.set("eventId", event.id);
    const reply = await admin.client.post("/admin", f);
    expect(reply.status).toBe(400);
    expect(html(eventFieldError(reply.text, field) ?? "")).toBe(message);
  }
  expect(await snapshot(server.db)).toEqual(before);
});

test("a field the form does not have is refused with a message, and nothing is stored", async () => {
  const before = await snapshot(server.db);
  const reply = await admin.client.post(
    "/admin",
    eventForm("publish", {}, [], undefined, { publishedBy: randomUUID() }),
  );
  expect(reply.status).toBe(400);
  expect(alertsIn(reply.text)[0]).toContain(
    "El formulario contiene campos que no se pueden cambiar",
  );
  expect(await snapshot(server.db)).toEqual(before);
});

test("the gallery refuses an empty, a javascript: and a data: URL, and stores nothing", async () => {
  const event = await createTestEvent(server.db, admin.user);
  const before = await snapshot(server.db);
  for (const [url, message] of [
    ["   ", "Escribe la URL de la imagen."],
    ["javascript:alert(1)", "La URL de la imagen debe empezar con http:// o https://."],
    ["data:image/png;base64,AAAA", "La URL de la imagen debe empezar con http:// o https://."],
  ] as const) {
    const reply = await admin.client.post(`/admin?galeria=${event.id}`, {
      intent: "galleryAdd",
      eventId: event.id,
      url,
    });
    expect(reply.status).toBe(400);
    expect(
      html(
        /<p class="field-error" id="gallery-url-error">([^<]*)<\/p>/.exec(reply.text)?.[1] ?? "",
      ),
    ).toBe(message);
  }
  expect(await snapshot(server.db)).toEqual(before);
});

test("an unknown or malformed event id is a 404 on every route and action that takes one, never a 500", async () => {
  const event = await createTestEvent(server.db, admin.user);
  const image = await addImage(server.db, admin.user, event.id, "https://example.com/x.png");
  const before = await snapshot(server.db);
  for (const id of [randomUUID(), "no-es-un-id", "1' or '1'='1", "%00"]) {
    for (const path of [`/detalles/${id}`, `/detalles/${id}/calendario.ics`]) {
      const reply = await member.client.get(path);
      expect([400, 404], path).toContain(reply.status);
      if (reply.status === 404 && path.endsWith(id))
        expect(reply.text).toContain("Evento no encontrado.");
    }
    for (const key of ["editar", "galeria", "eliminar", "usuario"]) {
      const reply = await admin.client.get(`/admin?${key}=${encodeURIComponent(id)}`);
      expect(reply.status, `${key}=${id}`).toBe(404);
    }
    const posts: Record<string, string>[] = [
      { intent: "delete", eventId: id },
      { intent: "galleryAdd", eventId: id, url: "https://example.com/y.png" },
      { intent: "galleryRemove", eventId: id, imageId: image.id },
      { intent: "galleryRemove", eventId: event.id, imageId: id },
      { intent: "grantAdmin", userId: id },
      { intent: "revokeAdmin", userId: id },
    ];
    for (const form of posts) {
      const reply = await admin.client.post("/admin", form);
      expect(reply.status, JSON.stringify(form)).toBe(404);
    }
    const update = await admin.client.post(
      "/admin",
      eventForm("update", {}, [], undefined, { eventId: id }),
    );
    expect(update.status).toBe(404);
    for (const intent of ["join", "leave"]) {
      const reply = await member.client.post(`/detalles/${encodeURIComponent(id)}`, { intent });
      expect([400, 404], `${intent} ${id}`).toContain(reply.status);
    }
  }
  expect(await snapshot(server.db)).toEqual(before);
});

// ——— Publishing rules ———

test("links are trimmed and blanks dropped; a Presencial event keeps none; times are read in SITE_TIMEZONE", async () => {
  const reply = await admin.client.post(
    "/admin",
    eventForm(
      "publish",
      {
        nombreEvento: "Híbrido con enlaces",
        tipoEvento: "Hibrido",
        fechaEvento: "2031-03-01",
        horaEvento: "09:30",
      },
      ["  https://meet.example.com/a  ", "", "https://youtube.com/live/x"],
    ),
  );
  expect(reply.status).toBe(302);
  const [hibrido] = await server.db
    .select()
    .from(events)
    .where(eq(events.nombreEvento, "Híbrido con enlaces"));
  expect(hibrido!.enlacesVirtuales).toEqual([
    "https://meet.example.com/a",
    "https://youtube.com/live/x",
  ]);
  expect(hibrido!.startsAt.toISOString()).toBe("2031-03-01T13:30:00.000Z");
  expect(hibrido!.publishedBy).toBe(admin.user.id);

  await admin.client.post(
    "/admin",
    eventForm("publish", { nombreEvento: "Presencial sin enlaces" }, [
      "https://meet.example.com/ignorado",
      "javascript:alert(1)",
    ]),
  );
  const [presencial] = await server.db
    .select()
    .from(events)
    .where(eq(events.nombreEvento, "Presencial sin enlaces"));
  expect(presencial!.enlacesVirtuales).toEqual([]);
  expect(presencial!.ubicacionEspecifica).toBe("Obrajes C2");
});

test("without JavaScript, '+ Añadir otro enlace' and 'Quitar' post the form back with a row more or less and store nothing", async () => {
  const before = await snapshot(server.db);
  const add = await admin.client.post(
    "/admin",
    eventForm("publish", { tipoEvento: "Virtual" }, ["https://a.example.com"], undefined, {
      linkAction: "add",
    }),
  );
  expect(add.status).toBe(200);
  expect([...add.text.matchAll(/name="enlacesVirtuales"/g)]).toHaveLength(2);
  expect(add.text).toContain('value="https://a.example.com"');
  const remove = await admin.client.post(
    "/admin",
    eventForm(
      "publish",
      { tipoEvento: "Virtual" },
      ["https://a.example.com", "https://b.example.com"],
      undefined,
      { linkAction: "remove-0" },
    ),
  );
  expect([...remove.text.matchAll(/name="enlacesVirtuales"/g)]).toHaveLength(1);
  expect(remove.text).toContain('value="https://b.example.com"');
  expect(remove.text).not.toContain("Quitar enlace");
  expect(await snapshot(server.db)).toEqual(before);
});

test("the panel shows the form, 'Eventos Publicados' newest first with 'Galería', 'Editar' and 'Eliminar', and the edit form filled in", async () => {
  const older = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Orden antiguo",
    fechaEvento: "2020-01-01",
  });
  const newer = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Orden nuevo",
    fechaEvento: "2040-01-01",
  });
  const page = await admin.client.get("/admin");
  expect(page.status).toBe(200);
  expect(page.text).toContain("Panel de Administración");
  expect(page.text).toContain("Publicar Nuevo Evento");
  expect(page.text).toContain("+ Añadir otro enlace");
  expect(page.text).toMatch(/<option value="Presencial" selected="">Presencial<\/option>/);
  expect(page.text.indexOf("Orden nuevo")).toBeLessThan(page.text.indexOf("Orden antiguo"));
  for (const label of ["Galería de", "Editar", "Eliminar"])
    expect(page.text).toContain(`aria-label="${label} Orden nuevo"`);
  // One action of a row is a button ('Gestionar'); the others are in the row's menu, alike.
  expect(page.text).toMatch(
    /class="button button-secondary button-small"[^>]*aria-label="Gestionar Orden nuevo/,
  );
  expect(page.text).toMatch(/class="row-menu-item"[^>]*aria-label="Editar Orden nuevo"/);

  // Each row says how many take part, and the seats left of an event with a capacity.
  const limited = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Con cupo",
    fechaEvento: "2041-01-01",
    capacity: "5",
  });
  await joinEvent(server.db, member.user, limited.id);
  const counted = await admin.client.get("/admin");
  expect(counted.text).toContain("1 inscrito · Quedan 4 plazas");
  expect(counted.text).toMatch(/Orden nuevo[\s\S]*?0 inscritos</);

  const edit = await admin.client.get(`/admin?editar=${newer.id}`);
  expect(edit.text).toContain("Editar Evento");
  expect(edit.text).toContain('value="Orden nuevo"');
  expect(edit.text).toContain('value="2040-01-01"');
  expect(edit.text).toContain('value="19:00"');
  expect(edit.text).toContain("Actualizar Evento");

  const confirm = await admin.client.get(`/admin?eliminar=${older.id}`);
  expect(html(confirm.text)).toContain(MESSAGES.eventDeleteConfirm);
  expect(confirm.text).toContain(`name="eventId" value="${older.id}"`);
});

test("with no events the panel says 'No hay eventos publicados.'", async () => {
  const empty = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  try {
    const { client } = await createAdmin(empty);
    const page = await client.get("/admin");
    expect(page.text).toContain("No hay eventos publicados.");
  } finally {
    await empty.close();
  }
});

test("the gallery dialog lists 50×50 thumbnails with link text cut to 40 characters, asks before removing, and says when it is empty", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Con galería" });
  const empty = await admin.client.get(`/admin?galeria=${event.id}`);
  expect(empty.text).toContain("Galería de Imágenes para: Con galería");
  expect(empty.text).toContain("No hay imágenes en la galería para este evento.");
  expect(empty.text).toContain("Agregar Imagen");
  const url = `https://example.com/${"imagen-larga-".repeat(6)}.png`;
  const added = await admin.client.post("/admin", {
    intent: "galleryAdd",
    eventId: event.id,
    url: `  ${url}  `,
  });
  expect(pathOf(added.location)).toBe(`/admin?galeria=${event.id}`);
  const page = await landOn(admin.client, added);
  expect(alertsIn(page.text)).toEqual([MESSAGES.galleryImageAdded]);
  expect(page.text).toContain(`width="50" height="50"`);
  expect(page.text).toContain(`>${url.slice(0, 40)}</a>`);
  const [image] = await server.db
    .select()
    .from(eventImages)
    .where(eq(eventImages.eventId, event.id));
  const confirm = await admin.client.get(`/admin?galeria=${event.id}&quitar=${image!.id}`);
  expect(html(confirm.text)).toContain(MESSAGES.galleryRemoveConfirm);
});

// ——— The event page ———

test("the event page shows everything of §2, links in a new tab, the gallery, its own meta data and schema.org Event", async () => {
  const event = await createTestEvent(
    server.db,
    admin.user,
    {
      nombreEvento: "Charla <b>abierta</b>",
      tipoEvento: "Hibrido",
      descripcion: "Línea 1\nLínea 2 </script><script>alert(1)</script>",
    },
    ["https://meet.example.com/x"],
  );
  await addImage(server.db, admin.user, event.id, "https://example.com/g1.png");
  const page = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain("Charla &lt;b&gt;abierta&lt;/b&gt;");
  expect(page.text).not.toContain("<script>alert(1)</script>");
  expect(page.text).toContain("Bolivia, La Paz — Obrajes C2");
  expect(page.text).toContain("viernes, 6 de diciembre de 2030, 7:00\u00a0p.\u00a0m.");
  expect(page.text).toMatch(
    /<a href="https:\/\/meet\.example\.com\/x" target="_blank" rel="noopener noreferrer">/,
  );
  expect(page.text).toContain(">Galería</h2>");
  expect(page.text).toContain('src="https://example.com/g1.png"');
  expect(page.text).toContain('href="/login?redirectTo=%2Fdetalles%2F' + event.id + '"');
  expect(page.text).toContain("Inicia Sesión para Participar");
  expect(page.text).toContain(`<title>Charla &lt;b&gt;abierta&lt;/b&gt; — Ayllu</title>`);
  // The preview's picture is the event's card (decision 046), never the outside link itself.
  expect(page.text).toContain(
    `<meta property="og:image" content="${server.url.origin}/og/evento/${event.id}"/>`,
  );
  const ld = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(page.text)?.[1];
  const json = JSON.parse(ld!);
  expect(json).toMatchObject({
    "@type": "Event",
    name: "Charla <b>abierta</b>",
    startDate: "2030-12-06T23:00:00.000Z",
    eventAttendanceMode: "https://schema.org/MixedEventAttendanceMode",
  });
  expect(page.text).toContain("Añadir al calendario");
});

test("the event page says who organises it, how many take part, where it is on a map, and leads back to the events", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Taller abierto" });
  const organiser = await createMember(
    server,
    `organiza-${randomUUID()}@example.com`,
    "Rocío Organiza",
  );
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  const before = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  // Nobody yet on an event still to come: an invitation, not a bleak "0 personas".
  expect(before.text).toMatch(
    /<dt>Participan<\/dt><dd>Nadie todavía: ¡sé la primera persona!<\/dd>/,
  );
  await joinEvent(server.db, member.user, event.id);
  const page = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  expect(page.text).toMatch(/<dt>Participan<\/dt><dd>1 persona<\/dd>/);
  // The publisher, then the organisers, by name: never an e-mail.
  expect(page.text).toMatch(/<dt>Organiza<\/dt><dd>[^<]+, Rocío Organiza<\/dd>/);
  expect(page.text).not.toContain(organiser.user.email);
  expect(page.text).toContain(
    'href="https://www.openstreetmap.org/search?query=Obrajes%20C2%2C%20Bolivia%2C%20La%20Paz"',
  );
  expect(page.text).toMatch(
    /<p class="back-link"><a href="\/eventos"[^>]*><span aria-hidden="true">←<\/span>Todos los eventos<\/a>/,
  );
  // An event only online has no place on a map.
  const online = await createTestEvent(
    server.db,
    admin.user,
    { nombreEvento: "Solo en línea", tipoEvento: "Virtual" },
    ["https://meet.example.com/y"],
  );
  const virtual = await new BrowserClient(server.url).get(`/detalles/${online.id}`);
  expect(virtual.text).not.toContain("openstreetmap.org");
});

test("an event without links or gallery shows neither, and a Presencial event never shows links", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Solo presencial" });
  const page = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  expect(page.text).not.toContain("Enlaces del evento");
  expect(page.text).not.toContain(">Galería</h2>");
});

test("the .ics file has the event in UTC, escaped text and the event's address", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Taller; con, comas",
    fechaEvento: "2030-12-06",
    horaEvento: "19:00",
  });
  const reply = await new BrowserClient(server.url).get(`/detalles/${event.id}/calendario.ics`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  expect(reply.headers.get("content-disposition")).toContain("attachment");
  const text = reply.text.replace(/\r\n /g, "");
  expect(text).toContain("DTSTART:20301206T230000Z");
  expect(text).toContain("SUMMARY:Taller\\; con\\, comas");
  expect(text).toContain(`URL:${server.url.origin}/detalles/${event.id}`);
  expect(reply.text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
});

test("/eventos lists upcoming events soonest first, then past ones, to visitors", async () => {
  await createTestEvent(server.db, admin.user, {
    nombreEvento: "Lista futuro lejano",
    fechaEvento: "2045-05-05",
  });
  await createTestEvent(server.db, admin.user, {
    nombreEvento: "Lista futuro cercano",
    fechaEvento: "2035-05-05",
  });
  await createTestEvent(server.db, admin.user, {
    nombreEvento: "Lista pasado",
    fechaEvento: "2021-05-05",
  });
  const page = await new BrowserClient(server.url).get("/eventos");
  expect(page.status).toBe(200);
  const upcoming = page.text.indexOf("Próximos eventos");
  const past = page.text.indexOf("Eventos pasados");
  expect(page.text.indexOf("Lista futuro cercano")).toBeGreaterThan(upcoming);
  expect(page.text.indexOf("Lista futuro cercano")).toBeLessThan(
    page.text.indexOf("Lista futuro lejano"),
  );
  expect(page.text.indexOf("Lista futuro lejano")).toBeLessThan(past);
  expect(page.text.indexOf("Lista pasado")).toBeGreaterThan(past);
  expect((await new BrowserClient(server.url).get("/eventos?pasados=abc")).status).toBe(200);
});

test("deleting an event removes its participations and gallery", async () => {
  const event = await createTestEvent(server.db, admin.user);
  await addImage(server.db, admin.user, event.id, "https://example.com/z.png");
  await server.db.insert(participations).values({ userId: member.user.id, eventId: event.id });
  const reply = await admin.client.post("/admin", { intent: "delete", eventId: event.id });
  expect(reply.status).toBe(302);
  expect(
    await server.db.select().from(participations).where(eq(participations.eventId, event.id)),
  ).toHaveLength(0);
  expect(
    await server.db.select().from(eventImages).where(eq(eventImages.eventId, event.id)),
  ).toHaveLength(0);
  expect((await member.client.get(`/detalles/${event.id}`)).status).toBe(404);
});

test("/eventos shows 24 upcoming events a page, soonest first, with pages for the rest", async () => {
  const tag = randomUUID().slice(0, 6);
  for (let i = 0; i < 26; i++) {
    await createTestEvent(server.db, admin.user, {
      nombreEvento: `Página ${tag} ${String(i).padStart(2, "0")}`,
      fechaEvento: `2050-01-${String(i + 1).padStart(2, "0")}`,
    });
  }
  const names = (text: string) =>
    [...text.matchAll(new RegExp(`>(Página ${tag} \\d\\d)</a>`, "g"))].map((m) => m[1]);
  const first = await new BrowserClient(server.url).get("/eventos");
  const pages = Number(/Página 1 de (\d+)/.exec(first.text)?.[1]);
  expect(pages).toBeGreaterThanOrEqual(2);
  const last = await new BrowserClient(server.url).get(`/eventos?proximos=${pages}`);
  const seen = [...names(first.text), ...names(last.text)];
  for (let p = 2; p < pages; p++)
    seen.push(...names((await new BrowserClient(server.url).get(`/eventos?proximos=${p}`)).text));
  expect(seen).toEqual(
    Array.from({ length: 26 }, (_, i) => `Página ${tag} ${String(i).padStart(2, "0")}`),
  );
  expect([...first.text.matchAll(/<li class="item-card">/g)].length).toBeLessThanOrEqual(48);
});

test("a bad link is reported together with the other fields' mistakes", async () => {
  const reply = await admin.client.post(
    "/admin",
    eventForm("publish", { tipoEvento: "Virtual", horaEvento: "25:00", nombreEvento: "" }, [
      "javascript:alert(1)",
    ]),
  );
  expect(reply.status).toBe(400);
  expect(eventFieldError(reply.text, "horaEvento")).toBe(
    "La hora del evento no es válida (usa HH:MM, de 00:00 a 23:59).",
  );
  expect(eventFieldError(reply.text, "nombreEvento")).toBe("Escribe el nombre del evento.");
  expect(eventFieldError(reply.text, "enlacesVirtuales")).toBe(
    "Cada enlace debe ser una URL válida que empiece con http:// o https://.",
  );
});

test("an event whose time falls past the year 9999 in UTC gets an error next to 'Fecha', not a server error", async () => {
  const before = await snapshot(server.db);
  // 20:00 on 9999-12-31 in La Paz is 00:00 on 10000-01-01 in UTC.
  const late = eventForm("publish", { fechaEvento: "9999-12-31", horaEvento: "20:00" });
  const reply = await admin.client.post("/admin", late);
  expect(reply.status).toBe(400);
  expect(eventFieldError(reply.text, "fechaEvento")).toBeTruthy();
  expect(await snapshot(server.db)).toEqual(before);

  const event = await createTestEvent(server.db, admin.user);
  const update = eventForm(
    "update",
    { fechaEvento: "9999-12-31", horaEvento: "23:59" },
    [],
    undefined,
    { eventId: event.id },
  );
  const updated = await admin.client.post("/admin", update);
  expect(updated.status).toBe(400);
  expect(eventFieldError(updated.text, "fechaEvento")).toBeTruthy();

  // The last minute that still falls in 9999 in UTC is accepted.
  const edge = await admin.client.post(
    "/admin",
    eventForm("publish", { fechaEvento: "9999-12-31", horaEvento: "19:59" }),
  );
  expect(edge.status).toBe(302);
});

test("/eventos counts its upcoming and past events from memory, by the clock and after every write, as count(*) would", async () => {
  const stop = await watchEventEnds(server.database);
  try {
    const options = { pageSize: 1, upcomingOffset: 0, pastOffset: 0 };
    const counted = async (at: Date) => {
      const [row] = rowsOf<{ upcoming: number; past: number }>(
        await server.db.execute(sql`select
          count(*) filter (where ends_at > ${at.toISOString()}::timestamptz)::int as upcoming,
          count(*) filter (where ends_at <= ${at.toISOString()}::timestamptz)::int as past
          from events`),
      );
      return { upcomingTotal: row!.upcoming, pastTotal: row!.past };
    };
    const totals = async (at: Date) => {
      const page = await listEventsPage(server.db, options, at);
      return { upcomingTotal: page.upcomingTotal, pastTotal: page.pastTotal };
    };
    // 10:00 in La Paz is 14:00 UTC; it ends, by default, at 16:00 UTC.
    const event = await createTestEvent(server.db, admin.user, {
      fechaEvento: "2061-03-01",
      horaEvento: "10:00",
    });
    const instants = [
      "2061-03-01T13:59:59.999Z",
      "2061-03-01T14:00:00.000Z",
      "2061-03-01T14:00:00.001Z",
      "2061-03-01T15:59:59.999Z",
      "2061-03-01T16:00:00.000Z",
      "2020-01-01T00:00:00Z",
      "2100-01-01T00:00:00Z",
    ].map((at) => new Date(at));
    // Written through this process's model: counted at once.
    for (const at of instants)
      expect(await totals(at), at.toISOString()).toEqual(await counted(at));
    // Its start leaves it among the upcoming ones (in progress); its end moves it to the past.
    const before = await totals(instants[0]!);
    expect(await totals(instants[1]!)).toEqual(before);
    expect(await totals(instants[3]!)).toEqual(before);
    const after = await totals(instants[4]!);
    expect(after.pastTotal - before.pastTotal).toBe(1);
    expect(before.upcomingTotal - after.upcomingTotal).toBe(1);

    // Written as another process would (its NOTIFY reaches this one a moment later).
    await server.db.insert(events).values({
      ...(await server.db.select().from(events).where(eq(events.id, event.id)))[0]!,
      id: randomUUID(),
    });
    const at = instants[0]!;
    for (const deadline = Date.now() + 10_000; ;) {
      const [seen, expected] = [await totals(at), await counted(at)];
      if (seen.upcomingTotal === expected.upcomingTotal || Date.now() > deadline) {
        expect(seen).toEqual(expected);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await totals(at)).upcomingTotal).toBe(before.upcomingTotal + 1);
  } finally {
    await stop();
  }
});
