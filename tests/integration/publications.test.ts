// Content (§2 Content admin page, §3 Note/Resource/Project, §4, §5, §7, §8): who may change
// notes, resources and projects, what bad input gets, and the public pages, RSS and sitemap.
import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { UNKNOWN_FIELDS_MESSAGE } from "~/kernel/forms";
import { notes, projects, resources, users, type User } from "~/db/schema.server";
import { NotAllowedError } from "~/kernel/permissions";
import { createNote, deleteNote } from "~/publications/note.server";
import { createProject, deleteProject, updateProject } from "~/publications/project.server";
import { createResource, deleteResource, updateResource } from "~/publications/resource.server";
import { failOnConsoleError } from "../helpers/console";
import { noteInput, projectInput, resourceInput } from "../helpers/publications";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { openEventStream } from "../helpers/event-stream";
import { alertsIn, escapeHtml } from "../helpers/profile-form";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInMember } from "../helpers/sign-in";

const ADMIN = "admin-contenido@example.com";
const ADMIN_2 = "admin-dos@example.com";

let server: TestServer;
let admin: BrowserClient;
let admin2: BrowserClient;
let member: BrowserClient;
let adminUser: User;
let admin2User: User;
let memberUser: User;

async function userByEmail(email: string): Promise<User> {
  const [row] = await server.db.select().from(users).where(eq(users.email, email));
  return row!;
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: `${ADMIN},${ADMIN_2}` });
  admin = await signInMember(server.url, ADMIN, "Ana Admin");
  admin2 = await signInMember(server.url, ADMIN_2, "Beto Admin");
  member = await signInMember(server.url, "miembro-contenido@example.com", "Carla Miembro");
  adminUser = await userByEmail(ADMIN);
  admin2User = await userByEmail(ADMIN_2);
  memberUser = await userByEmail("miembro-contenido@example.com");
  expect(adminUser.isAdmin && admin2User.isAdmin && !memberUser.isAdmin).toBe(true);
});
afterAll(() => server?.close());

failOnConsoleError();

const uniq = () => randomUUID().slice(0, 8);

async function snapshot() {
  return {
    notes: await server.db.select().from(notes).orderBy(asc(notes.id)),
    resources: await server.db.select().from(resources).orderBy(asc(resources.id)),
    projects: await server.db.select().from(projects).orderBy(asc(projects.id)),
  };
}

/** The fields of a valid submission of each form, as a browser posts them. */
function noteForm(fields: Record<string, string | string[]> = {}) {
  return {
    intent: "createNote",
    titulo: `Nota ${uniq()}`,
    texto: "Hola comunidad",
    enlaceImagen: "",
    enlacesAdicionales: [""],
    ...fields,
  };
}
function resourceForm(fields: Record<string, string | string[]> = {}) {
  return {
    intent: "saveResource",
    titulo: `Recurso ${uniq()}`,
    subtitulos: "",
    texto: "Cómo soldar",
    enlacesImagenes: [""],
    enlacesVideos: [""],
    enlacesWeb: [""],
    ...fields,
  };
}
function projectForm(fields: Record<string, string | string[]> = {}) {
  return {
    intent: "saveProject",
    titulo: `Proyecto ${uniq()}`,
    descripcion: "Un robot",
    enlacesVideo: [""],
    enlacesImagen: [""],
    enlacesWeb: [""],
    enlacesDocumentacion: [""],
    ...fields,
  };
}

function fieldError(html: string, id: string): string | null {
  return new RegExp(`<p class="field-error" id="${id}">([^<]*)</p>`).exec(html)?.[1] ?? null;
}

/** Follows a successful save to the page it lands on and returns the alerts shown there. */
async function landing(client: BrowserClient, reply: { status: number; location: string | null }) {
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/projectsandnotes");
  const page = await client.get(reply.location!);
  expect(page.status).toBe(200);
  return { page, alerts: alertsIn(page.text) };
}

// ——— Access ———

test("a visitor is sent to /login and back, a member to /inicio with 'Acceso denegado. No eres un administrador.', an admin sees 'Panel de Administración'", async () => {
  const visitor = await new BrowserClient(server.url).get("/projectsandnotes");
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toBe("/login?redirectTo=%2Fprojectsandnotes");

  const refused = await member.get("/projectsandnotes");
  expect(refused.status).toBe(302);
  expect(pathOf(refused.location)).toBe("/inicio");
  const inicio = await member.get("/inicio");
  expect(alertsIn(inicio.text)).toEqual(["Acceso denegado. No eres un administrador."]);

  const page = await admin.get("/projectsandnotes");
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toContain("no-store");
  for (const text of [
    "Panel de Administración",
    "Formulario de Recursos",
    "Mostrar Notas",
    "Ocultar Notas",
    "Mostrar Recursos",
    "Mostrar Proyectos",
    "Publicar Proyecto",
  ]) {
    expect(page.text).toContain(text);
  }
  // §9: the note's text area has 5 rows.
  expect(page.text).toMatch(/<textarea[^>]*name="texto"[^>]*rows="5"/);
});

test("every create, edit and delete is refused for visitors and members, and nothing changes", async () => {
  const note = await createNote(server.db, adminUser, noteInput());
  const resource = await createResource(server.db, adminUser, resourceInput());
  const project = await createProject(server.db, adminUser, projectInput());
  const before = await snapshot();
  const submissions = [
    noteForm(),
    resourceForm(),
    resourceForm({ id: resource.id }),
    projectForm(),
    projectForm({ id: project.id }),
    { intent: "deleteNote", id: note.id },
    { intent: "deleteResource", id: resource.id },
    { intent: "deleteProject", id: project.id },
  ];
  for (const fields of submissions) {
    const visitor = await new BrowserClient(server.url).post("/projectsandnotes", fields);
    expect(visitor.status, `visitante ${fields.intent}`).toBe(302);
    expect(pathOf(visitor.location)).toBe("/login?redirectTo=%2Fprojectsandnotes");
    const refused = await member.post("/projectsandnotes", fields);
    expect(refused.status, `miembro ${fields.intent}`).toBe(403);
    expect(refused.text).toContain("Acceso denegado. No eres un administrador.");
  }
  expect(await snapshot()).toEqual(before);
});

test("the model functions themselves refuse members and nobody, whatever route calls them", async () => {
  const note = await createNote(server.db, adminUser, noteInput());
  const resource = await createResource(server.db, adminUser, resourceInput());
  const project = await createProject(server.db, adminUser, projectInput());
  const before = await snapshot();
  for (const actor of [memberUser, null]) {
    await expect(createNote(server.db, actor, noteInput())).rejects.toBeInstanceOf(NotAllowedError);
    await expect(deleteNote(server.db, actor, note.id)).rejects.toBeInstanceOf(NotAllowedError);
    await expect(createResource(server.db, actor, resourceInput())).rejects.toBeInstanceOf(
      NotAllowedError,
    );
    await expect(
      updateResource(server.db, actor, resource.id, resourceInput()),
    ).rejects.toBeInstanceOf(NotAllowedError);
    await expect(deleteResource(server.db, actor, resource.id)).rejects.toBeInstanceOf(
      NotAllowedError,
    );
    await expect(createProject(server.db, actor, projectInput())).rejects.toBeInstanceOf(
      NotAllowedError,
    );
    await expect(
      updateProject(server.db, actor, project.id, projectInput()),
    ).rejects.toBeInstanceOf(NotAllowedError);
    await expect(deleteProject(server.db, actor, project.id)).rejects.toBeInstanceOf(
      NotAllowedError,
    );
  }
  expect(await snapshot()).toEqual(before);
});

test("the live stream is refused to visitors (401) and members (403) and opens for admins as text/event-stream", async () => {
  const url = new URL("/projectsandnotes/stream", server.url);
  const visitor = await fetch(url);
  expect(visitor.status).toBe(401);
  const refused = await fetch(url, { headers: { cookie: member.cookieHeader() } });
  expect(refused.status).toBe(403);
  expect(refused.headers.get("content-type")).not.toContain("event-stream");

  const stream = await openEventStream(url, admin.cookieHeader(), {
    "accept-encoding": "gzip, br",
  });
  try {
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain("text/event-stream");
    // Compression would hold events back until a buffer fills: the stream is never compressed.
    expect(stream.headers.get("content-encoding")).toBeNull();
    expect(stream.headers.get("cache-control")).toContain("no-store");
  } finally {
    stream.close();
  }
});

// ——— Notes ———

test("an admin publishes a note: 'Nota publicada con éxito!', links kept in order without blanks, publisher recorded", async () => {
  const titulo = `Clash Robotics ${uniq()}`;
  const reply = await admin.post(
    "/projectsandnotes",
    noteForm({
      titulo: `  ${titulo}  `,
      texto: "Primera línea\nSegunda línea",
      enlaceImagen: "https://example.com/foto.png",
      enlacesAdicionales: ["https://b.example/2", "  ", "https://a.example/1", ""],
    }),
  );
  const { page, alerts } = await landing(admin, reply);
  expect(alerts).toEqual(["Nota publicada con éxito!"]);
  expect(page.text).toContain(titulo);
  const [row] = await server.db.select().from(notes).where(eq(notes.titulo, titulo));
  expect(row).toMatchObject({
    texto: "Primera línea\nSegunda línea",
    enlaceImagen: "https://example.com/foto.png",
    enlacesAdicionales: ["https://b.example/2", "https://a.example/1"],
    publisher: adminUser.id,
    publisherName: "Ana Admin",
  });
});

test("deleting a note asks '¿Estás seguro de que deseas eliminar esta nota?' first, then 'Nota eliminada con éxito!'", async () => {
  const note = await createNote(server.db, adminUser, noteInput());
  const confirm = await admin.get(`/projectsandnotes?eliminarNota=${note.id}`);
  expect(confirm.text).toContain("¿Estás seguro de que deseas eliminar esta nota?");
  expect(confirm.text).toMatch(new RegExp(`<input type="hidden" name="id" value="${note.id}"/>`));
  const reply = await admin.post("/projectsandnotes", { intent: "deleteNote", id: note.id });
  const { alerts } = await landing(admin, reply);
  expect(alerts).toEqual(["Nota eliminada con éxito!"]);
  expect(await server.db.select().from(notes).where(eq(notes.id, note.id))).toEqual([]);
});

// ——— Resources ———

test("an admin publishes a resource with two videos, edits it ('Editar Recurso', 'Recurso actualizado con éxito!') and createdAt and the publisher stay", async () => {
  const reply = await admin.post(
    "/projectsandnotes",
    resourceForm({
      titulo: "Guía de Arduino",
      subtitulos: "Primeros pasos",
      enlacesVideos: [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "",
        "https://youtu.be/9bZkp7q19f0",
      ],
      enlacesImagenes: ["https://example.com/a.png"],
      enlacesWeb: ["https://arduino.cc"],
    }),
  );
  expect((await landing(admin, reply)).alerts).toEqual(["Recurso publicado con éxito!"]);
  const [created] = await server.db
    .select()
    .from(resources)
    .where(eq(resources.titulo, "Guía de Arduino"));
  expect(created!.enlacesVideos).toEqual([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtu.be/9bZkp7q19f0",
  ]);
  expect(created!.publisher).toBe(adminUser.id);

  // 'Editar' fills the form with the resource; the submit reads 'Actualizar Recurso'.
  const editing = await admin2.get(`/projectsandnotes?editarRecurso=${created!.id}`);
  expect(editing.text).toContain("Editar Recurso");
  expect(editing.text).toContain("Cancelar Edición");
  expect(editing.text).toContain("Actualizar Recurso");
  expect(editing.text).toContain('value="Guía de Arduino"');
  expect(editing.text).toContain('value="https://youtu.be/9bZkp7q19f0"');

  // A second admin saves it: a merge-update that keeps createdAt and the original publisher.
  const saved = await admin2.post(
    `/projectsandnotes?editarRecurso=${created!.id}`,
    resourceForm({
      id: created!.id,
      titulo: "Guía de Arduino (2.ª edición)",
      enlacesVideos: ["https://youtu.be/9bZkp7q19f0"],
    }),
  );
  const { page, alerts } = await landing(admin2, saved);
  expect(alerts).toEqual(["Recurso actualizado con éxito!"]);
  // Back in create mode.
  expect(page.text).toContain("Formulario de Recursos");
  expect(page.text).not.toContain("Cancelar Edición");
  const [updated] = await server.db.select().from(resources).where(eq(resources.id, created!.id));
  expect(updated).toMatchObject({
    titulo: "Guía de Arduino (2.ª edición)",
    enlacesVideos: ["https://youtu.be/9bZkp7q19f0"],
    enlacesImagenes: [],
    createdAt: created!.createdAt,
    publisher: adminUser.id,
    publisherName: "Ana Admin",
  });
  expect(updated!.updatedAt).not.toBeNull();
});

test("deleting a resource asks '¿Estás seguro de que deseas eliminar este recurso?', then 'Recurso eliminado con éxito!'", async () => {
  const resource = await createResource(server.db, adminUser, resourceInput());
  const confirm = await admin.get(`/projectsandnotes?eliminarRecurso=${resource.id}`);
  expect(confirm.text).toContain("¿Estás seguro de que deseas eliminar este recurso?");
  const reply = await admin.post("/projectsandnotes", {
    intent: "deleteResource",
    id: resource.id,
  });
  expect((await landing(admin, reply)).alerts).toEqual(["Recurso eliminado con éxito!"]);
  expect(await server.db.select().from(resources).where(eq(resources.id, resource.id))).toEqual([]);
});

// ——— Projects ———

test("an admin publishes, edits ('Actualizar Proyecto') and deletes a project; 'Lista de Proyectos' lists it", async () => {
  const titulo = `Robot sumo ${uniq()}`;
  const reply = await admin.post(
    "/projectsandnotes",
    projectForm({
      titulo,
      enlacesVideo: ["https://youtu.be/dQw4w9WgXcQ"],
      enlacesDocumentacion: ["https://docs.example/2", "https://docs.example/1"],
    }),
  );
  expect((await landing(admin, reply)).alerts).toEqual(["Proyecto publicado con éxito!"]);
  const [created] = await server.db.select().from(projects).where(eq(projects.titulo, titulo));
  expect(created!.enlacesDocumentacion).toEqual([
    "https://docs.example/2",
    "https://docs.example/1",
  ]);

  const list = await admin.get("/projectsandnotes?proyectos=1");
  expect(list.text).toContain("Lista de Proyectos");
  expect(list.text).toContain(`Editar el proyecto ${escapeHtml(titulo)}`);

  const editing = await admin.get(`/projectsandnotes?editarProyecto=${created!.id}`);
  expect(editing.text).toContain("Actualizar Proyecto");
  expect(editing.text).toContain("Editar Proyecto");
  const saved = await admin2.post(
    "/projectsandnotes",
    projectForm({ id: created!.id, titulo: `${titulo} v2`, descripcion: "Mejorado" }),
  );
  expect((await landing(admin2, saved)).alerts).toEqual(["Proyecto actualizado con éxito!"]);
  const [updated] = await server.db.select().from(projects).where(eq(projects.id, created!.id));
  expect(updated).toMatchObject({
    titulo: `${titulo} v2`,
    descripcion: "Mejorado",
    createdAt: created!.createdAt,
    publisher: adminUser.id,
    enlacesDocumentacion: [],
  });

  expect((await admin.get(`/projectsandnotes?eliminarProyecto=${created!.id}`)).text).toContain(
    "¿Estás seguro de que deseas eliminar este proyecto?",
  );
  const deleted = await admin.post("/projectsandnotes", {
    intent: "deleteProject",
    id: created!.id,
  });
  expect((await landing(admin, deleted)).alerts).toEqual(["Proyecto eliminado con éxito!"]);
  expect(await server.db.select().from(projects).where(eq(projects.id, created!.id))).toEqual([]);
});

test("with no projects, 'Lista de Proyectos' says 'No hay proyectos publicados.'", async () => {
  const fresh = await startTestServer({ ADMIN_EMAILS: ADMIN });
  try {
    const client = await signInMember(fresh.url, ADMIN, "Ana Admin");
    await client.get("/");
    const page = await client.get("/projectsandnotes?proyectos=1");
    expect(page.text).toContain("Lista de Proyectos");
    expect(page.text).toContain("No hay proyectos publicados.");
  } finally {
    await fresh.close();
  }
});

// ——— Bad input ———

const BAD_URLS = [
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "ftp://example.com/x",
  "no es una url",
];
const LINK_ERROR = "Cada enlace debe ser una URL válida que empiece con http:// o https://.";
const VIDEO_ERROR = "Cada enlace de video debe ser una URL de YouTube (youtube.com o youtu.be).";

interface Bad {
  title: string;
  fields: Record<string, string | string[]>;
  errorId?: string;
  /** Refused on the error page, before the form is checked. */
  page?: boolean;
  message: string;
}

const BAD_INPUTS: Bad[] = [
  {
    title: "a note without titulo",
    fields: noteForm({ titulo: "  " }),
    errorId: "nota-titulo-error",
    message: "Escribe un título.",
  },
  {
    title: "a note without texto",
    fields: noteForm({ texto: "" }),
    errorId: "nota-texto-error",
    message: "Escribe el texto de la nota.",
  },
  {
    title: "a note with a titulo of 201 characters",
    fields: noteForm({ titulo: "x".repeat(201) }),
    errorId: "nota-titulo-error",
    message: "Máximo 200 caracteres.",
  },
  {
    title: "a resource without titulo",
    fields: resourceForm({ titulo: "" }),
    errorId: "recurso-titulo-error",
    message: "Escribe un título.",
  },
  {
    title: "a resource without texto",
    fields: resourceForm({ texto: " " }),
    errorId: "recurso-texto-error",
    message: "Escribe el texto del recurso.",
  },
  {
    title: "a project without titulo",
    fields: projectForm({ titulo: "" }),
    errorId: "proyecto-titulo-error",
    message: "Escribe un título.",
  },
  {
    title: "a project without descripcion",
    fields: projectForm({ descripcion: "" }),
    errorId: "proyecto-descripcion-error",
    message: "Escribe la descripción del proyecto.",
  },
  ...BAD_URLS.map((url) => ({
    title: `a note with enlaceImagen ${url}`,
    fields: noteForm({ enlaceImagen: url }),
    errorId: "nota-enlaceImagen-error",
    message: "El enlace de imagen debe ser una URL válida que empiece con http:// o https://.",
  })),
  ...BAD_URLS.flatMap((url) => [
    {
      title: `enlacesAdicionales with ${url}`,
      fields: noteForm({ enlacesAdicionales: ["https://ok.example", url] }),
      errorId: "nota-enlacesAdicionales-error",
      message: LINK_ERROR,
    },
    {
      title: `enlacesImagenes with ${url}`,
      fields: resourceForm({ enlacesImagenes: [url] }),
      errorId: "recurso-enlacesImagenes-error",
      message: LINK_ERROR,
    },
    {
      title: `a resource's enlacesWeb with ${url}`,
      fields: resourceForm({ enlacesWeb: [url] }),
      errorId: "recurso-enlacesWeb-error",
      message: LINK_ERROR,
    },
    {
      title: `enlacesVideos with ${url}`,
      fields: resourceForm({ enlacesVideos: [url] }),
      errorId: "recurso-enlacesVideos-error",
      message: VIDEO_ERROR,
    },
    {
      title: `enlacesVideo with ${url}`,
      fields: projectForm({ enlacesVideo: [url] }),
      errorId: "proyecto-enlacesVideo-error",
      message: VIDEO_ERROR,
    },
    {
      title: `enlacesImagen with ${url}`,
      fields: projectForm({ enlacesImagen: [url] }),
      errorId: "proyecto-enlacesImagen-error",
      message: LINK_ERROR,
    },
    {
      title: `a project's enlacesWeb with ${url}`,
      fields: projectForm({ enlacesWeb: [url] }),
      errorId: "proyecto-enlacesWeb-error",
      message: LINK_ERROR,
    },
    {
      title: `enlacesDocumentacion with ${url}`,
      fields: projectForm({ enlacesDocumentacion: [url] }),
      errorId: "proyecto-enlacesDocumentacion-error",
      message: LINK_ERROR,
    },
  ]),
  {
    title: "a resource video that is not YouTube",
    fields: resourceForm({ enlacesVideos: ["https://vimeo.com/12345678"] }),
    errorId: "recurso-enlacesVideos-error",
    message: VIDEO_ERROR,
  },
  {
    title: "a project video that is not YouTube",
    fields: projectForm({ enlacesVideo: ["https://example.com/watch?v=dQw4w9WgXcQ"] }),
    errorId: "proyecto-enlacesVideo-error",
    message: VIDEO_ERROR,
  },
  {
    title: "a note with a publisher field",
    fields: noteForm({ publisher: "00000000-0000-4000-8000-000000000000" }),
    message: `${UNKNOWN_FIELDS_MESSAGE}: publisher.`,
  },
  {
    title: "a resource with publisherName",
    fields: resourceForm({ publisherName: "Otro" }),
    message: `${UNKNOWN_FIELDS_MESSAGE}: publisherName.`,
  },
  {
    title: "a project with createdAt",
    fields: projectForm({ createdAt: "2020-01-01" }),
    message: `${UNKNOWN_FIELDS_MESSAGE}: createdAt.`,
  },
  {
    title: "a note with titulo sent twice",
    fields: noteForm({ titulo: ["Uno", "Dos"] }),
    errorId: "nota-titulo-error",
    message: "Este campo tiene un valor no válido.",
  },
  {
    // Refused where every form is read (decision 063), before the form's own checks.
    title: "a NUL character in texto",
    fields: noteForm({ texto: "a\u0000b" }),
    page: true,
    message: KERNEL_MESSAGES.controlCharacter,
  },
  {
    title: "an unknown intent",
    fields: { intent: "dropTables", titulo: "x" },
    message: "Acción no válida.",
  },
];

for (const bad of BAD_INPUTS) {
  test(`refuses ${bad.title}: a clear Spanish message, nothing stored`, async () => {
    const before = await snapshot();
    const reply = await admin.post("/projectsandnotes", bad.fields);
    expect(reply.status).toBe(400);
    if (bad.page) {
      expect(reply.text).toContain(bad.message);
    } else if (bad.errorId) {
      expect(fieldError(reply.text, bad.errorId)).toBe(escapeHtml(bad.message));
    } else {
      expect(alertsIn(reply.text)).toEqual([escapeHtml(bad.message)]);
    }
    // What was typed comes back in the form (the note's or resource's title, when there is one).
    expect(await snapshot()).toEqual(before);
  });
}

test("an unknown or malformed id on edit and delete gets 404 and a Spanish message, nothing changed", async () => {
  await createNote(server.db, adminUser, noteInput());
  const before = await snapshot();
  const unknown = randomUUID();
  const cases: Array<{ fields: Record<string, string | string[]>; message: string }> = [
    { fields: resourceForm({ id: unknown }), message: "El recurso no existe o ya fue eliminado." },
    {
      fields: resourceForm({ id: "no-es-un-id" }),
      message: "El recurso no existe o ya fue eliminado.",
    },
    { fields: projectForm({ id: unknown }), message: "El proyecto no existe o ya fue eliminado." },
    {
      fields: projectForm({ id: "1 or 1=1" }),
      message: "El proyecto no existe o ya fue eliminado.",
    },
    {
      fields: { intent: "deleteNote", id: unknown },
      message: "La nota no existe o ya fue eliminada.",
    },
    {
      fields: { intent: "deleteNote", id: "../../x" },
      message: "La nota no existe o ya fue eliminada.",
    },
    { fields: { intent: "deleteNote" }, message: "La nota no existe o ya fue eliminada." },
    {
      fields: { intent: "deleteResource", id: unknown },
      message: "El recurso no existe o ya fue eliminado.",
    },
    {
      fields: { intent: "deleteProject", id: "" },
      message: "El proyecto no existe o ya fue eliminado.",
    },
  ];
  // The site's one not-found answer: the error page says what is missing and leads back to the panel.
  const notFoundPage = (html: string) => ({
    title: /<h1 id="error-title">([^<]*)<\/h1>/.exec(html)?.[1],
    back: html.includes('href="/projectsandnotes"'),
  });
  for (const { fields, message } of cases) {
    const reply = await admin.post("/projectsandnotes", fields);
    expect(reply.status, JSON.stringify(fields)).toBe(404);
    expect(notFoundPage(reply.text)).toEqual({ title: message, back: true });
  }
  const editing = await admin.get(`/projectsandnotes?editarRecurso=${unknown}`);
  expect(editing.status).toBe(404);
  expect(notFoundPage(editing.text)).toEqual({
    title: "El recurso no existe o ya fue eliminado.",
    back: true,
  });
  const project = await admin.get("/projectsandnotes?editarProyecto=xyz");
  expect(project.status).toBe(404);
  expect(notFoundPage(project.text).title).toBe("El proyecto no existe o ya fue eliminado.");
  expect(await snapshot()).toEqual(before);
});

test("public pages answer 404 for unknown and malformed ids", async () => {
  for (const path of ["/notas/", "/recursos/", "/proyectos/"]) {
    for (const id of [
      randomUUID(),
      "abc",
      "1%20or%201=1",
      "00000000-0000-0000-0000-00000000000g",
    ]) {
      const reply = await new BrowserClient(server.url).get(path + id);
      expect(reply.status, path + id).toBe(404);
      expect(reply.text).toContain("Página no encontrada");
    }
  }
});

// ——— Public pages ———

test("<script>alert(1)</script> typed as text shows as text on every page that shows it", async () => {
  const evil = "<script>alert(1)</script>";
  const note = await createNote(
    server.db,
    adminUser,
    noteInput({ titulo: `Nota ${evil}`, texto: evil }),
  );
  const resource = await createResource(
    server.db,
    adminUser,
    resourceInput({ titulo: `Recurso ${evil}`, subtitulos: evil, texto: evil }),
  );
  const project = await createProject(
    server.db,
    adminUser,
    projectInput({ titulo: `Proyecto ${evil}`, descripcion: evil }),
  );
  const visitor = new BrowserClient(server.url);
  const pages = [
    await visitor.get("/notas"),
    await visitor.get(`/notas/${note.id}`),
    await visitor.get("/recursos"),
    await visitor.get(`/recursos/${resource.id}`),
    await visitor.get("/proyectos"),
    await visitor.get(`/proyectos/${project.id}`),
    await admin.get("/projectsandnotes?proyectos=1"),
    await admin.get(`/projectsandnotes?editarRecurso=${resource.id}`),
  ];
  for (const page of pages) {
    expect(page.status, page.url).toBe(200);
    expect(page.text, page.url).not.toContain(evil);
    expect(page.text, page.url).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  }
  const rss = await visitor.get("/notas/rss.xml");
  expect(rss.text).not.toContain(evil);
  expect(rss.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
});

test("/notas, /recursos and /proyectos list what is published, newest first, each linking to its page", async () => {
  const older = await createNote(server.db, adminUser, noteInput({ titulo: `Antigua ${uniq()}` }));
  await server.db
    .update(notes)
    .set({ createdAt: new Date("2020-01-01T00:00:00Z") })
    .where(eq(notes.id, older.id));
  const newer = await createNote(server.db, adminUser, noteInput({ titulo: `Reciente ${uniq()}` }));
  const visitor = new BrowserClient(server.url);
  const list = await visitor.get("/notas");
  expect(list.text.indexOf(newer.titulo)).toBeGreaterThan(-1);
  expect(list.text.indexOf(newer.titulo)).toBeLessThan(list.text.indexOf(older.titulo));
  expect(list.text).toContain(`href="/notas/${newer.id}"`);

  const resource = await createResource(server.db, adminUser, resourceInput());
  expect((await visitor.get("/recursos")).text).toContain(`href="/recursos/${resource.id}"`);
  const project = await createProject(server.db, adminUser, projectInput());
  expect((await visitor.get("/proyectos")).text).toContain(`href="/proyectos/${project.id}"`);
});

test("a note's page keeps line breaks, has its title, description and OpenGraph image, and links only http(s)", async () => {
  const note = await createNote(
    server.db,
    adminUser,
    noteInput({
      titulo: "Taller de soldadura",
      texto: "Línea uno\nLínea dos",
      enlaceImagen: "https://example.com/taller.png",
      enlacesAdicionales: ["https://example.com/inscripcion"],
    }),
  );
  const page = await new BrowserClient(server.url).get(`/notas/${note.id}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain("<title>Taller de soldadura — Ayllu</title>");
  expect(page.text).toContain('<meta name="description" content="Línea uno Línea dos"/>');
  expect(page.text).toContain(
    `<meta property="og:image" content="${server.url.origin}/og/nota/${note.id}"/>`,
  );
  expect(page.text).toContain(
    `<meta property="og:url" content="${server.url.origin}/notas/${note.id}"/>`,
  );
  expect(page.text).toMatch(/<p class="publication-text">Línea uno\nLínea dos<\/p>/);
  expect(page.text).toContain('href="https://example.com/inscripcion"');
});

test("resource and project pages show YouTube videos as thumbnails that link to YouTube, no player until asked", async () => {
  const resource = await createResource(
    server.db,
    adminUser,
    resourceInput({
      titulo: "Videos de robótica",
      enlacesVideos: [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://youtu.be/9bZkp7q19f0",
      ],
      enlacesImagenes: ["https://example.com/r.png"],
    }),
  );
  const page = await new BrowserClient(server.url).get(`/recursos/${resource.id}`);
  expect(page.text).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
  expect(page.text).toContain('src="https://i.ytimg.com/vi/9bZkp7q19f0/hqdefault.jpg"');
  expect(page.text).toContain("Reproducir video: Videos de robótica (2)");
  expect(page.text).not.toContain("<iframe");
  expect(page.text).toContain(
    `<meta property="og:image" content="${server.url.origin}/og/recurso/${resource.id}"/>`,
  );

  const project = await createProject(
    server.db,
    adminUser,
    projectInput({ titulo: "Seguidor de línea", enlacesVideo: ["https://youtu.be/dQw4w9WgXcQ"] }),
  );
  const projectPage = await new BrowserClient(server.url).get(`/proyectos/${project.id}`);
  expect(projectPage.text).toContain('src="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"');
  expect(projectPage.text).not.toContain("<iframe");
});

test("/notas/rss.xml is an RSS feed of the notes, newest first, with absolute links", async () => {
  const note = await createNote(server.db, adminUser, noteInput({ titulo: `RSS & más ${uniq()}` }));
  const reply = await new BrowserClient(server.url).get("/notas/rss.xml");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
  expect(reply.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
  expect(reply.text).toContain(`<title>${note.titulo.replace("&", "&amp;")}</title>`);
  expect(reply.text).toContain(`<link>${server.url.origin}/notas/${note.id}</link>`);
  const first = /<item>\s*<title>([^<]*)<\/title>/.exec(reply.text)?.[1];
  expect(first).toBe(note.titulo.replace("&", "&amp;"));
});

test("sitemap.xml lists every public page, and robots.txt points to it with an absolute URL", async () => {
  const note = await createNote(server.db, adminUser, noteInput());
  const resource = await createResource(server.db, adminUser, resourceInput());
  const project = await createProject(server.db, adminUser, projectInput());
  const reply = await new BrowserClient(server.url).get("/sitemap.xml");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const origin = server.url.origin;
  for (const path of [
    "/",
    "/inicio",
    "/events",
    "/clase1",
    "/eventos",
    "/notas",
    "/recursos",
    "/proyectos",
    `/notas/${note.id}`,
    `/recursos/${resource.id}`,
    `/proyectos/${project.id}`,
  ]) {
    expect(reply.text).toContain(`<loc>${origin}${path}</loc>`);
  }
  expect(reply.text).not.toContain("/projectsandnotes");
  expect(reply.text).not.toContain("/profile");

  const robots = await new BrowserClient(server.url).get("/robots.txt");
  expect(robots.status).toBe(200);
  expect(robots.text).toContain(`Sitemap: ${origin}/sitemap.xml`);
  expect(robots.text).toContain("Disallow: /projectsandnotes");
  expect(robots.text).toContain("Disallow: /profile");
});

// ——— Without JavaScript ———

test("without JavaScript every link list has its saved rows plus a blank one, and 'Mostrar Notas' is a disclosure that needs no script", async () => {
  const resource = await createResource(
    server.db,
    adminUser,
    resourceInput({ enlacesWeb: ["https://uno.example", "https://dos.example"] }),
  );
  const page = await admin.get(`/projectsandnotes?editarRecurso=${resource.id}`);
  const rows = [...page.text.matchAll(/<input[^>]*id="recurso-enlacesWeb-\d+"[^>]*>/g)].map(
    (m) => /value="([^"]*)"/.exec(m[0])?.[1],
  );
  expect(rows).toEqual(["https://uno.example", "https://dos.example", ""]);
  expect([...page.text.matchAll(/name="enlacesAdicionales"/g)]).toHaveLength(1);
  expect(page.text).toMatch(
    /<details class="publication-list-toggle"><summary[^>]*><span class="when-closed">Mostrar Notas<\/span><span class="when-open">Ocultar Notas<\/span><\/summary>/,
  );
  // The rows are edited with JavaScript only: without it, no buttons that would do nothing.
  expect(page.text).not.toContain("+ Añadir");
});

// ——— Live ———

test("a stream open on the admin page hears another admin's create, edit and delete", async () => {
  const stream = await openEventStream(
    new URL("/projectsandnotes/stream", server.url),
    admin.cookieHeader(),
  );
  try {
    const created = await admin2.post("/projectsandnotes", noteForm());
    expect(created.status).toBe(302);
    const [row] = await server.db
      .select()
      .from(notes)
      .orderBy(asc(notes.createdAt))
      .limit(1)
      .offset((await server.db.select().from(notes)).length - 1);
    await stream.waitFor(
      (e) =>
        e.event === "content" &&
        JSON.parse(e.data).kind === "note" &&
        JSON.parse(e.data).action === "created" &&
        JSON.parse(e.data).id === row!.id,
      2000,
    );

    const resource = await createResource(server.db, admin2User, resourceInput());
    await stream.waitFor(
      (e) => JSON.parse(e.data).id === resource.id && JSON.parse(e.data).action === "created",
      2000,
    );
    await admin2.post("/projectsandnotes", resourceForm({ id: resource.id }));
    await stream.waitFor(
      (e) => JSON.parse(e.data).id === resource.id && JSON.parse(e.data).action === "updated",
      2000,
    );
    await admin2.post("/projectsandnotes", { intent: "deleteResource", id: resource.id });
    await stream.waitFor(
      (e) => JSON.parse(e.data).id === resource.id && JSON.parse(e.data).action === "deleted",
      2000,
    );

    // A refused change tells nobody anything.
    const count = stream.events.length;
    await member.post("/projectsandnotes", noteForm());
    await admin.post("/projectsandnotes", noteForm({ titulo: "" }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events.length).toBe(count);
  } finally {
    stream.close();
  }
});

// ——— Database failures ———

test("when the database fails mid-way, the admin gets §8's error message and nothing is half-saved", async () => {
  const resource = await createResource(server.db, adminUser, resourceInput());
  const project = await createProject(server.db, adminUser, projectInput());
  const before = await snapshot();
  const failures = [
    {
      table: "notes",
      fields: noteForm(),
      message: "Error al publicar la nota. Por favor, inténtalo de nuevo.",
    },
    {
      table: "resources",
      fields: resourceForm(),
      message: "Error al publicar el recurso. Por favor, inténtalo de nuevo.",
    },
    {
      table: "resources",
      fields: resourceForm({ id: resource.id }),
      message: "Error al actualizar el recurso. Por favor, inténtalo de nuevo.",
    },
    {
      table: "resources",
      fields: { intent: "deleteResource", id: resource.id },
      message: "Error al eliminar el recurso. Por favor, inténtalo de nuevo.",
    },
    {
      table: "projects",
      fields: projectForm(),
      message: "Error al publicar el proyecto. Por favor, inténtalo de nuevo.",
    },
    {
      table: "projects",
      fields: projectForm({ id: project.id }),
      message: "Error al actualizar el proyecto. Por favor, inténtalo de nuevo.",
    },
    {
      table: "projects",
      fields: { intent: "deleteProject", id: project.id },
      message: "Error al eliminar el proyecto. Por favor, inténtalo de nuevo.",
    },
    {
      table: "notes",
      fields: { intent: "deleteNote", id: randomUUID() },
      message: "Error al eliminar la nota. Por favor, inténtalo de nuevo.",
    },
  ];
  const logged = vi.mocked(console.error);
  await server.db.execute(
    sql.raw(
      "create or replace function ayllu_prueba_falla() returns trigger language plpgsql as $$ begin raise exception 'fallo simulado'; end $$",
    ),
  );
  for (const { table, fields, message } of failures) {
    // Every write to the table fails (reads, and sessions, still work); then it is put back.
    await server.db.execute(
      sql.raw(
        `create trigger prueba_falla before insert or update or delete on ${table} for each statement execute function ayllu_prueba_falla()`,
      ),
    );
    try {
      const reply = await admin.post("/projectsandnotes", fields);
      expect(reply.status, message).toBe(500);
      expect(alertsIn(reply.text)).toEqual([message]);
    } finally {
      await server.db.execute(sql.raw(`drop trigger prueba_falla on ${table}`));
    }
    // The failure was logged for the operator.
    expect(logged.mock.calls.length).toBe(1);
    logged.mockClear();
  }
  expect(await snapshot()).toEqual(before);
});

test("an admin's open stream ends at the next heartbeat once the account is no longer an admin", async () => {
  const email = `admin-temporal-${uniq()}@example.com`;
  // The heartbeat is 25 s in production; this server beats every 300 ms.
  const fresh = await startTestServer({ ADMIN_EMAILS: email }, { heartbeatMs: 300 });
  try {
    const client = await signInMember(fresh.url, email, "Admin Temporal");
    const stream = await openEventStream(
      new URL("/projectsandnotes/stream", fresh.url),
      client.cookieHeader(),
    );
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    // Still an admin: heartbeats come and the stream stays open.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(ended).toBe(false);
    await fresh.db.update(users).set({ isAdmin: false }).where(eq(users.email, email));
    await stream.ended;
    expect(ended).toBe(true);
  } finally {
    await fresh.close();
  }
});
