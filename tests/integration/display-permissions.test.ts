// Pages show an action to exactly those the capability table lets do it (issue 55, point 2): the
// display asks what the server enforces. Before, the lists of notes, resources and projects
// offered 'Publicar' to admins only, by reading isAdmin, and an editor — who may publish — never
// saw it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { may } from "~/kernel/permissions";
import { grantRole, loadGrants } from "~/members/roles.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
});
afterAll(() => server?.close());

failOnConsoleError();

const LISTS = [
  { path: "/notas", label: "Publicar una nota" },
  { path: "/recursos", label: "Publicar un recurso" },
  { path: "/proyectos", label: "Publicar un proyecto" },
];

test("'Publicar' on the empty lists is shown to exactly those the capability table lets publish, and leads to a page they may use", async () => {
  const admin = await createAdmin(server);
  const event = await createTestEvent(server.db, admin.user);
  const person = (name: string) => createMember(server, `${randomUUID()}@example.com`, name);
  const editor = await person("Elena Editora");
  const organiser = await person("Olga Organizadora");
  const door = await person("Pedro Puerta");
  const treasurer = await person("Tomás Tesorero");
  const member = await person("Mía Miembro");
  await grantRole(server.db, admin.user, { userId: editor.user.id, kind: "editor" });
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });

  const people = [
    ["admin", admin],
    ["editor", editor],
    ["organiser", organiser],
    ["door", door],
    ["treasurer", treasurer],
    ["member", member],
    ["visitor", null],
  ] as const;
  const seen: Record<string, boolean> = {};
  for (const [name, who] of people) {
    const client = who?.client ?? new BrowserClient(server.url);
    const actor = who ? { ...who.user, grants: await loadGrants(server.db, who.user.id) } : null;
    const allowed = may(actor, "publications.manage");
    for (const list of LISTS) {
      const page = await client.get(list.path);
      expect(page.status, `${name} ${list.path}`).toBe(200);
      expect(page.text, `${name} ${list.path}`).toContain("No hay");
      expect(page.text.includes(list.label), `${name} ${list.path}`).toBe(allowed);
    }
    // The page the button leads to serves whoever sees the button, and refuses the others.
    const publish = await client.get("/projectsandnotes");
    expect(publish.status === 200, `${name} /projectsandnotes`).toBe(allowed);
    seen[name] = allowed;
  }
  // The table itself: admins and editors publish, nobody else.
  expect(seen).toEqual({
    admin: true,
    editor: true,
    organiser: false,
    door: false,
    treasurer: false,
    member: false,
    visitor: false,
  });
});
