// Pages show an action to exactly those the capability table lets do it (issue 55, point 2): the
// display asks what the server enforces. Before, the lists of notes, resources and projects
// offered 'Publicar' to admins only, by reading isAdmin, and an editor — who may publish — never
// saw it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { competitionCategories, events, eventSessions, type User } from "~/db/schema.server";
import {
  grantsAllowing,
  may,
  mayAdminister,
  mayAnyTime,
  mayAs,
  type Action,
  type Actor,
  type RoleKind,
  type Scope,
} from "~/kernel/permissions";
import { zonedDateTime } from "~/kernel/time";
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

/** Where an action leads or how it is named in the HTML; the menu is matched within the menu only. */
interface Shown {
  /** The page that shows it (ids filled in once the events exist). */
  page: string;
  /** What marks it in the page's HTML. */
  find: RegExp;
  /** In the member's menu (on every page), rather than in the page's own content. */
  menu?: true;
  /** The action the capability table is asked about, and its scope. */
  action: Action | "administer";
  scope?: Scope;
  /**
   * How the display asks: `may` (the default); `anyTime`, a link to a page that itself says when it
   * opens (door staff outside their window see it); `as`, a link meant for one role (a judge's
   * screen, which admins and organisers reach from the event's management); `ownGrant`, the menu's
   * entries of one event's roles (admins reach every event from the panel instead).
   */
  ask?: "may" | "anyTime" | { as: RoleKind } | { ownGrant: RoleKind | "any" };
}

/** What the capability table says about one entry for one person. */
function tableSays(actor: Actor | null, entry: Shown): boolean {
  const { action, scope = {}, ask = "may" } = entry;
  if (action === "administer") return mayAdminister(actor);
  if (ask === "may") return may(actor, action, scope);
  if (ask === "anyTime") return mayAnyTime(actor, action, scope);
  if ("as" in ask) return mayAs(actor, ask.as, action, scope);
  return (
    !mayAdminister(actor) &&
    grantsAllowing(actor, action).some((g) => ask.ownGrant === "any" || g.kind === ask.ownGrant)
  );
}

/** The member's menu, and the page without it (the menu's links repeat some of the page's). */
function split(html: string): { menu: string; page: string } {
  const menu = /<ul[^>]*class="user-menu-list"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? "";
  return { menu, page: html.replace(menu, "") };
}

/** A label as React writes it: a variable part may follow a `<!-- -->`. */
const label = (text: string) => new RegExp(`>\\s*${text.replaceAll(" ", "\\s+")}\\s*<`);

test("every role, over every page's actions: each is shown to exactly those the capability table lets do it (a door outside its window sees the link to a check-in that says when it opens)", async () => {
  const admin = await createAdmin(server);
  const soon = async (name: string) => {
    const local = zonedDateTime(new Date(Date.now() + 3_600_000), "America/La_Paz");
    return createTestEvent(server.db, admin.user, {
      nombreEvento: name,
      fechaEvento: local.date,
      horaEvento: local.time,
    });
  };
  // X starts in an hour (its door staff are within their window); Y in 2030 (outside).
  const x = await soon("Feria de robótica");
  const y = await createTestEvent(server.db, admin.user, { nombreEvento: "Torneo lejano" });
  const [sumo] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: x.id,
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
  const person = (name: string) => createMember(server, `${randomUUID()}@example.com`, name);
  const give = async (who: { user: User }, kind: RoleKind, eventId?: string, categoryId?: string) =>
    grantRole(server.db, admin.user, { userId: who.user.id, kind, eventId, categoryId });
  const people: [string, { client: BrowserClient; user: User } | null][] = [
    ["anonymous", null],
    ["member", await person("Mía Miembro")],
    ["admin", admin],
    ["organiser of X", await person("Olga Organiza")],
    ["organiser of Y", await person("Otto Otro")],
    ["editor", await person("Elena Edita")],
    ["door of X (within its window)", await person("Pedro Puerta")],
    ["door of Y (outside its window)", await person("Paula Puerta")],
    ["treasurer", await person("Tomás Tesorero")],
    ["judge of X's category", await person("Julia Jurado")],
  ];
  const who = Object.fromEntries(people);
  await give(who["organiser of X"]!, "organiser", x.id);
  await give(who["organiser of Y"]!, "organiser", y.id);
  await give(who["editor"]!, "editor");
  await give(who["door of X (within its window)"]!, "door", x.id);
  await give(who["door of Y (outside its window)"]!, "door", y.id);
  await give(who["treasurer"]!, "treasurer");
  await give(who["judge of X's category"]!, "judge", x.id, sumo!.id);

  const eventPage = (e: { id: string }): Shown[] => [
    {
      page: `/detalles/${e.id}`,
      find: label("Gestionar evento"),
      action: "event.manage",
      scope: { eventId: e.id },
    },
    {
      page: `/detalles/${e.id}`,
      find: label("Categorías de la competencia"),
      action: "event.competition",
      scope: { eventId: e.id },
    },
    {
      page: `/detalles/${e.id}`,
      find: new RegExp(`href="/admin/eventos/${e.id}/registro"`),
      action: "event.checkIn",
      scope: { eventId: e.id },
      ask: "anyTime",
    },
    // The event's team: the kinds its form offers (admins give organisers too).
    {
      page: `/detalles/${e.id}`,
      find: /<option value="organiser"/,
      action: "roles.grant",
      scope: { eventId: e.id },
    },
    {
      page: `/detalles/${e.id}`,
      find: /<option value="door"/,
      action: "event.door.grant",
      scope: { eventId: e.id },
    },
  ];
  const walk: Shown[] = [
    // The member's menu (the same on every page).
    { page: "/eventos", menu: true, find: label("Administrar y Publicar"), action: "administer" },
    {
      page: "/eventos",
      menu: true,
      find: label("Notas y Proyectos"),
      action: "publications.manage",
    },
    { page: "/eventos", menu: true, find: label("Contenido del sitio"), action: "administer" },
    { page: "/eventos", menu: true, find: label("Tesorería"), action: "payments.setup" },
    { page: "/eventos", menu: true, find: label("Registro de auditoría"), action: "audit.read" },
    { page: "/eventos", menu: true, find: label("Diagnóstico"), action: "administer" },
    {
      page: "/eventos",
      menu: true,
      find: label("Registro de entrada"),
      action: "event.checkIn",
      ask: { ownGrant: "any" },
    },
    {
      page: "/eventos",
      menu: true,
      find: label("Anotar resultados"),
      action: "category.judge",
      ask: { ownGrant: "judge" },
    },
    // The lists of publications, empty: 'Publicar'.
    { page: "/notas", find: label("Publicar una nota"), action: "publications.manage" },
    { page: "/recursos", find: label("Publicar un recurso"), action: "publications.manage" },
    { page: "/proyectos", find: label("Publicar un proyecto"), action: "publications.manage" },
    { page: "/", find: label("Publicar una nota"), action: "publications.manage" },
    { page: "/", find: label("Publicar un proyecto"), action: "publications.manage" },
    // The event's page: the links its staff's roles open, and the team's form.
    ...eventPage(x),
    ...eventPage(y),
    {
      page: `/detalles/${x.id}`,
      find: label("Equipos de la competencia"),
      action: "event.competition",
      scope: { eventId: x.id },
    },
    {
      page: `/detalles/${x.id}`,
      find: /<option value="judge"/,
      action: "event.judges.grant",
      scope: { eventId: x.id },
    },
    {
      page: `/detalles/${x.id}`,
      find: new RegExp(`href="/admin/eventos/${x.id}/jurado/${sumo!.id}"`),
      action: "category.judge",
      scope: { eventId: x.id, categoryId: sumo!.id },
      ask: { as: "judge" },
    },
    // The event's management (its organisers and admins): back to the panel, for admins.
    { page: `/admin/eventos/${x.id}`, find: label("Volver al panel"), action: "administer" },
    // A competition's teams: the schools' page.
    {
      page: `/admin/eventos/${x.id}/equipos`,
      find: label("Colegios y universidades"),
      action: "schools.merge",
    },
  ];
  // Once nothing is upcoming: 'Publicar un evento' on the home and the list of events.
  const nothingUpcoming: Shown[] = [
    { page: "/", find: label("Publicar un evento"), action: "event.create" },
    { page: "/eventos", find: label("Publicar un evento"), action: "event.create" },
  ];

  const actors = new Map<string, Actor | null>();
  for (const [name, p] of people)
    actors.set(name, p ? { ...p.user, grants: await loadGrants(server.db, p.user.id) } : null);
  const anonymous = new BrowserClient(server.url);
  const disagreements: string[] = [];
  const seen = new Map<string, number>();
  const check = async (entries: readonly Shown[]) => {
    for (const [name, p] of people) {
      const client = p?.client ?? anonymous;
      const pages = new Map<string, { menu: string; page: string }>();
      for (const entry of entries) {
        if (!pages.has(entry.page))
          pages.set(entry.page, split((await client.get(entry.page)).text));
        const html = pages.get(entry.page)!;
        const shows = entry.find.test(entry.menu ? html.menu : html.page);
        const allowed = tableSays(actors.get(name)!, entry);
        const key = `${entry.page} ${entry.find}`;
        if (shows) seen.set(key, (seen.get(key) ?? 0) + 1);
        if (shows !== allowed)
          disagreements.push(`${name} — ${key}: shown ${shows}, the table says ${allowed}`);
      }
    }
  };
  await check(walk);
  const past = new Date(Date.now() - 400 * 86_400_000);
  // Every event of the site (this file's other test publishes one too) moves a year back.
  const pastEnd = new Date(past.getTime() + 3_600_000);
  await server.db.update(events).set({ startsAt: past, endsAt: pastEnd });
  await server.db.update(eventSessions).set({ startsAt: past, endsAt: pastEnd });
  await server.settled();
  await check(nothingUpcoming);
  expect(disagreements).toEqual([]);
  // Every entry is shown to someone: a marker that matches nothing would prove nothing.
  expect(
    [...walk, ...nothingUpcoming].map((e) => `${e.page} ${e.find}`).filter((k) => !seen.has(k)),
  ).toEqual([]);
});
