// The admin screens' rules, asked of their loaders and actions directly with real Requests on a
// fresh database: who may (visitors and members are refused, nothing changes) and what input is
// refused (a clear Spanish message per field, 400, nothing stored).
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession } from "~/members/session.server";
import { loadConfig, type Config } from "~/kernel/config.server";
import type { Database } from "~/db/client.server";
import { events, notes, resources, users } from "~/db/schema.server";
import * as contentAdmin from "~/routes/publications/admin";
import * as panel from "~/routes/admin/panel";
import { createTestDatabase } from "../helpers/database";
import { TEST_ENV } from "../helpers/server";

let database: Database;
let config: Config;
const ORIGIN = "http://127.0.0.1:3999";

beforeAll(async () => {
  database = await createTestDatabase();
  config = loadConfig({ ...TEST_ENV, PUBLIC_URL: ORIGIN });
});
afterAll(async () => {
  await database?.close();
});

let counter = 0;
/** A signed-in person's cookie header; an admin when asked. */
async function personCookie(isAdmin: boolean): Promise<string> {
  counter += 1;
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://directo.invalid",
      subject: `persona-${counter}-${Date.now()}`,
      email: `persona-${counter}-${Date.now()}@example.com`,
      emailVerified: true,
      nombreCompleto: `Persona ${counter}`,
      isAdmin,
    })
    .returning();
  const setCookie = await createSession(database.db, user!.id, { secure: false });
  return setCookie.split(";")[0]!;
}

function request(path: string, cookie: string | null, form?: Record<string, string>): Request {
  const headers: Record<string, string> = { Origin: ORIGIN };
  if (cookie) headers.Cookie = cookie;
  return new Request(new URL(path, ORIGIN), {
    method: form ? "POST" : "GET",
    headers,
    body: form ? new URLSearchParams(form) : undefined,
  });
}

function args(req: Request) {
  // The route modules' generated argument types also name router internals a direct call leaves out.
  return {
    request: req,
    params: {},
    context: { db: database.db, config, personal: () => {}, now: () => new Date() },
  } as never;
}

/** What a loader or action threw or returned, as status, location and body. */
async function outcome(run: () => Promise<unknown>) {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response)
    return { status: value.status, location: value.headers.get("Location"), body: null };
  const init = value as { type?: string; data?: unknown; init?: { status?: number } };
  if (init?.type === "DataWithResponseInit")
    return { status: init.init?.status ?? 200, location: null, body: init.data };
  return { status: 200, location: null, body: value };
}

const noteForm = {
  intent: "createNote",
  titulo: "Nota directa",
  texto: "Texto.",
  enlaceImagen: "",
};
const eventForm = {
  intent: "publish",
  nombreEvento: "Evento directo",
  ubicacionEvento: "Bolivia, Potosí",
  ubicacionEspecifica: "",
  tipoEvento: "Presencial",
  fechaEvento: "2031-05-04",
  horaEvento: "18:30",
  imagenEnlace: "https://example.org/a.png",
  descripcion: "Un encuentro.",
};

test("a visitor is sent to sign in by both admin screens, and their posts change nothing", async () => {
  for (const [route, path] of [
    [contentAdmin, "/projectsandnotes"],
    [panel, "/admin"],
  ] as const) {
    const page = await outcome(() => route.loader(args(request(path, null))));
    expect(page.status).toBe(302);
    expect(page.location).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  }
  const post = await outcome(() =>
    contentAdmin.action(args(request("/projectsandnotes", null, noteForm))),
  );
  expect(post.status).toBe(302);
  expect(await database.db.select().from(notes)).toHaveLength(0);
});

test("a member is refused: pages send them to /inicio, posts get 403 and nothing is stored", async () => {
  const member = await personCookie(false);
  for (const [route, path] of [
    [contentAdmin, "/projectsandnotes"],
    [panel, "/admin"],
  ] as const) {
    const page = await outcome(() => route.loader(args(request(path, member))));
    expect(page.status).toBe(302);
    expect(page.location).toBe("/inicio");
  }
  const note = await outcome(() =>
    contentAdmin.action(args(request("/projectsandnotes", member, noteForm))),
  );
  expect(note.status).toBe(403);
  expect(note.body).toBe("Acceso denegado. No eres un administrador.");
  const event = await outcome(() => panel.action(args(request("/admin", member, eventForm))));
  expect(event.status).toBe(403);
  expect(await database.db.select().from(notes)).toHaveLength(0);
  expect(await database.db.select().from(events)).toHaveLength(0);
});

test("an admin's refused inputs get 400 with the field's Spanish message, and nothing is stored", async () => {
  const admin = await personCookie(true);
  const vimeo = await outcome(() =>
    contentAdmin.action(
      args(
        request("/projectsandnotes", admin, {
          intent: "saveResource",
          titulo: "Recurso",
          subtitulos: "",
          texto: "Texto.",
          enlacesVideos: "https://vimeo.com/123456",
        }),
      ),
    ),
  );
  expect(vimeo.status).toBe(400);
  expect((vimeo.body as { fieldErrors: Record<string, string> }).fieldErrors.enlacesVideos).toMatch(
    /YouTube/,
  );
  expect(await database.db.select().from(resources)).toHaveLength(0);

  const ftp = await outcome(() =>
    panel.action(
      args(request("/admin", admin, { ...eventForm, imagenEnlace: "ftp://example.org/a.png" })),
    ),
  );
  expect(ftp.status).toBe(400);
  expect(
    (ftp.body as { fieldErrors: Record<string, string> }).fieldErrors.imagenEnlace,
  ).toBeTruthy();
  expect(await database.db.select().from(events)).toHaveLength(0);

  const published = await outcome(() =>
    contentAdmin.action(args(request("/projectsandnotes", admin, noteForm))),
  );
  expect(published.status).toBe(302);
  expect(published.location).toBe("/projectsandnotes");
  const lists = await outcome(() => contentAdmin.loader(args(request("/projectsandnotes", admin))));
  const shown = (lists.body as { lists: { notes: Record<string, unknown>[] } }).lists.notes;
  expect(shown.map((n) => n.titulo)).toEqual(["Nota directa"]);
  // The lists carry only what they show: no texts.
  expect(Object.keys(shown[0]!).sort()).toEqual([
    "createdAt",
    "id",
    "publisherName",
    "titulo",
    "version",
  ]);
});
