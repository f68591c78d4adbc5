// The landing pages' content in the database (/admin/sitio, decision 023): the defaults written
// once, admins only (per role, in the model too), bad input refused with Spanish messages and
// nothing changed, and a saved change on the very next request — through the page cache.
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SITE_DEFAULTS } from "~/site/copy/section-defaults";
import { MESSAGES } from "~/messages";
import type { SiteSections, SiteSectionKey } from "~/site/sections";
import { siteSectionSchema } from "~/site/section-schemas";
import { SITE_SECTION_KEYS, valuesFromSection } from "~/site/section-fields";
import { siteSections } from "~/db/schema.server";
import { NotAllowedError } from "~/kernel/permissions";
import {
  loadSiteSections,
  saveSiteSection,
  seedSiteSections,
  watchSiteSections,
} from "~/site/sections.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { alertsIn, createAdmin, createMember, landOn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

const rows = () => server.db.select().from(siteSections).orderBy(asc(siteSections.section));

/** A section's form as the page posts it, from content, with `change` applied on top. */
function form<K extends SiteSectionKey>(
  key: K,
  content: SiteSections[K],
  change: Record<string, string | string[]> = {},
): Record<string, string | string[]> {
  const values = valuesFromSection(key, content) as Record<string, string | string[]>;
  return { intent: "save", section: key, ...values, ...change };
}

function fieldError(html: string, id: string): string | null {
  return new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(html)?.[1] ?? null;
}

test("the defaults are the content of a new database, one row per section, and each fits its schema", async () => {
  const stored = await rows();
  expect(stored.map((r) => r.section).sort()).toEqual([...SITE_SECTION_KEYS].sort());
  for (const row of stored) {
    expect(row.editedAt).toBeNull();
    expect(row.content).toEqual(SITE_DEFAULTS[row.section as SiteSectionKey]);
    expect(siteSectionSchema(row.section as SiteSectionKey).safeParse(row.content).success).toBe(
      true,
    );
  }
  // No stand-in people, logos or links among them.
  expect(SITE_DEFAULTS.leaders.leaders).toEqual([]);
  expect(SITE_DEFAULTS.sponsors.sponsors).toEqual([]);
  expect(SITE_DEFAULTS.social.links).toEqual([]);
});

test("the defaults are written once: never again over what an admin saved, even an emptied section", async () => {
  const past: SiteSections["courses"]["past"] = [];
  await saveSiteSection(server.db, admin.user, "courses", { current: [], past });
  expect(await seedSiteSections(server.db)).toEqual([]);
  const courses = (await rows()).find((r) => r.section === "courses")!;
  expect(courses.content).toEqual({ current: [], past: [] });
  expect(courses.editedAt).not.toBeNull();
  expect(courses.editedBy).toBe(admin.user.id);
  // A section without a row (as for a database from before the section existed) gets its defaults.
  await server.db.delete(siteSections).where(eq(siteSections.section, "venue"));
  expect(await seedSiteSections(server.db)).toEqual(["venue"]);
  await saveSiteSection(server.db, admin.user, "courses", SITE_DEFAULTS.courses);
});

test("visitors are sent to sign in and members refused, for the page and for every section's post", async () => {
  const visitor = new BrowserClient(server.url);
  const page = await visitor.get("/admin/sitio");
  expect(page.status).toBe(302);
  expect(pathOf(page.location)).toBe("/login?redirectTo=%2Fadmin%2Fsitio");

  const member = await createMember(server);
  const refused = await member.client.get("/admin/sitio");
  expect(pathOf(refused.location)).toBe("/inicio");
  expect(alertsIn((await landOn(member.client, refused)).text)).toEqual([MESSAGES.accessDenied]);

  const before = await rows();
  for (const key of SITE_SECTION_KEYS) {
    const body = form(key, SITE_DEFAULTS[key] as never);
    const asVisitor = await visitor.post("/admin/sitio", body);
    expect(asVisitor.status, key).toBe(302);
    expect(pathOf(asVisitor.location), key).toMatch(/^\/login/);
    const asMember = await member.client.post("/admin/sitio", body);
    expect(asMember.status, key).toBe(403);
    expect(asMember.text, key).toContain(MESSAGES.accessDenied);
  }
  expect(await rows()).toEqual(before);

  // The model refuses too, whoever calls it.
  await expect(
    saveSiteSection(server.db, member.user, "hero", { ...SITE_DEFAULTS.hero, title: "No" }),
  ).rejects.toBeInstanceOf(NotAllowedError);
  await expect(
    saveSiteSection(server.db, null, "hero", { ...SITE_DEFAULTS.hero, title: "No" }),
  ).rejects.toBeInstanceOf(NotAllowedError);
  expect(await rows()).toEqual(before);
});

test("an admin's change is on the next request of every page that shows it, cached or not", async () => {
  const visitor = new BrowserClient(server.url);
  const marker = randomUUID().slice(0, 8);
  // Each page is in the page cache before the change.
  for (const path of ["/", "/events", "/clase1", "/eventos"]) {
    expect((await visitor.get(path)).status).toBe(200);
    expect((await visitor.get(path)).status).toBe(200);
  }

  const saves: [SiteSectionKey, Record<string, string | string[]>][] = [
    ["hero", form("hero", SITE_DEFAULTS.hero, { title: `Ayllu ${marker}` })],
    [
      "leaders",
      form("leaders", {
        leaders: [{ name: `Ana ${marker}`, role: "Mentora", image: "/landing/ana.jpg" }],
      }),
    ],
    [
      "sponsors",
      form("sponsors", {
        intro: "Gracias.",
        sponsors: [
          {
            name: `Patrocina ${marker}`,
            description: "",
            logo: "https://img.example.org/logo.png",
            href: "https://patrocina.example.org",
          },
        ],
      }),
    ],
    ["competition", form("competition", SITE_DEFAULTS.competition, { edition: `Clash ${marker}` })],
    [
      "course",
      form("course", SITE_DEFAULTS.course, {
        price: `45bs ${marker}`,
        formHref: "https://forms.example.org/inscripcion",
      }),
    ],
    ["social", form("social", { links: ["https://www.youtube.com/@ayllu", ""] })],
  ];
  for (const [key, body] of saves) {
    const reply = await admin.client.post("/admin/sitio", body);
    expect(reply.status, `${key}: ${reply.text.slice(0, 300)}`).toBe(302);
    expect(pathOf(reply.location)).toBe(`/admin/sitio?seccion=${key}`);
    expect(alertsIn((await landOn(admin.client, reply)).text)).toEqual([MESSAGES.siteSaved]);
  }

  const home = (await visitor.get("/")).text;
  expect(home).toContain(`Ayllu ${marker}`);
  expect(home).toContain(`Ana ${marker}`);
  expect(home).toContain('src="/landing/ana.jpg"');
  expect(home).toContain(`Patrocina ${marker}`);
  expect(home).toContain('href="https://patrocina.example.org"');
  expect(home).toContain(`Clash ${marker}`);
  // Our Talks opens the channel, and the footer lists it, on every page.
  expect(home).toContain("Ver las charlas en YouTube");
  const events = (await visitor.get("/events")).text;
  expect(events).toContain(`<h1>Clash ${marker}</h1>`);
  expect(events).toContain(`alt="Patrocina ${marker} (se abre en una pestaña nueva)"`);
  const course = (await visitor.get("/clase1")).text;
  expect(course).toContain(`45bs ${marker}`);
  expect(course).toContain("INSCRÍBETE");
  expect(course).toContain('href="https://forms.example.org/inscripcion"');
  for (const page of [home, events, course, (await visitor.get("/eventos")).text])
    expect(page).toContain('href="https://www.youtube.com/@ayllu"');

  // The admin page shows what is saved, and when; one section at a time, Portada first.
  const adminPage = (await admin.client.get("/admin/sitio?seccion=leaders")).text;
  expect(adminPage).toContain(`value="Ana ${marker}"`);
  expect(adminPage).toMatch(/Guardado por última vez: [^<]*\d/);
  // The time ends in 'p. m.' or 'a. m.': no sentence full stop after it ('p. m..').
  expect(adminPage).not.toMatch(/m\.\.</);
  expect((await admin.client.get("/admin/sitio")).text).toContain(`value="Ayllu ${marker}"`);
  const unknown = await admin.client.get("/admin/sitio?seccion=__proto__");
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain("Esa sección del contenido no existe.");

  // Back to the defaults for the other tests.
  for (const key of ["hero", "leaders", "sponsors", "competition", "course", "social"] as const)
    await saveSiteSection(server.db, admin.user, key, SITE_DEFAULTS[key] as never);
});

test("a section or button without data is not shown, and no link leads to a placeholder", async () => {
  const visitor = new BrowserClient(server.url);
  // The test before put the defaults back outside the server's requests: on PostgreSQL its page
  // cache hears of it through NOTIFY, a moment later.
  let home = (await visitor.get("/")).text;
  for (const deadline = Date.now() + 10_000; home.includes('id="community"');) {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    home = (await visitor.get("/")).text;
  }
  // The defaults have no leaders, allies or sponsors: no Community section, nor its menu link.
  expect(home).not.toContain('id="community"');
  expect(home).not.toContain('href="/#community"');
  expect(home).toContain('href="/#courses"');
  // No YouTube channel: no Our Talks; no social links in the footer.
  expect(home).not.toContain("Our Talks");
  expect(home).not.toContain("Próximamente");
  expect(home).not.toMatch(/<footer[^]*<a /);
  // No store page: no 'Tienda' button; no registration form or group: no INSCRÍBETE.
  const events = (await visitor.get("/events")).text;
  expect(events).not.toMatch(/<a[^>]*>Tienda/);
  expect(events).toMatch(/id="store-title"[^]*<p class="badge">Próximamente<\/p>/);
  expect(events).toContain("Pendiente");
  const course = (await visitor.get("/clase1")).text;
  expect(course).not.toContain("INSCRÍBETE");
  expect(course).not.toContain("Inscríbete Ahora");
  // Without SEED_DEMO nothing is demo content, and nothing says so (decision 042).
  const adminPage = (await admin.client.get("/admin/sitio?seccion=leaders")).text;
  for (const page of [home, events, course, adminPage]) {
    expect(page).not.toContain("demostración");
    expect(page).not.toContain(`class="demo-note"`);
  }

  // Emptied courses hide the Courses section and its menu link.
  await saveSiteSection(server.db, admin.user, "courses", { current: [], past: [] });
  // Saved outside the server's requests: on PostgreSQL its page cache hears of it through
  // NOTIFY, a moment later (on the embedded database, before the save returns).
  let without = (await visitor.get("/inicio")).text;
  for (const deadline = Date.now() + 10_000; without.includes('id="courses"');) {
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    without = (await visitor.get("/inicio")).text;
  }
  expect(without).not.toContain('id="courses"');
  expect(without).not.toContain('href="/#courses"');
  await saveSiteSection(server.db, admin.user, "courses", SITE_DEFAULTS.courses);
});

test("bad input is refused next to its field with a Spanish message, and nothing is saved", async () => {
  const before = await rows();
  const leader = { name: "Ana", role: "Mentora", image: "https://img.example.org/ana.jpg" };
  const cases: {
    body: Record<string, string | string[]>;
    field: string;
    message: string | RegExp;
  }[] = [
    {
      body: form("leaders", { leaders: [{ ...leader, image: "javascript:alert(1)" }] }),
      field: "sitio-leaders-leaders-0-image",
      message:
        "«Foto» debe ser la dirección https:// de una imagen, o un archivo de este sitio que empiece con /.",
    },
    {
      body: form("leaders", { leaders: [leader, { ...leader, image: "//evil.example/a.png" }] }),
      field: "sitio-leaders-leaders-1-image",
      message: /^«Foto» debe ser/,
    },
    {
      body: form("leaders", { leaders: [{ ...leader, name: "" }] }),
      field: "sitio-leaders-leaders-0-name",
      message: "«Nombre» es obligatorio.",
    },
    {
      body: form("hero", SITE_DEFAULTS.hero, { title: "   " }),
      field: "sitio-hero-title",
      message: "«Título» es obligatorio.",
    },
    {
      body: form("hero", SITE_DEFAULTS.hero, { lead: "x".repeat(1001) }),
      field: "sitio-hero-lead",
      message: "«Texto de presentación» puede tener como máximo 1000 caracteres.",
    },
    {
      body: form("course", SITE_DEFAULTS.course, { formHref: "javascript:alert(1)" }),
      field: "sitio-course-formHref",
      message:
        "«Formulario de Inscripción» debe ser una dirección que empiece con https:// (o http://).",
    },
    {
      body: form("venue", SITE_DEFAULTS.venue, { storeHref: "/tienda" }),
      field: "sitio-venue-storeHref",
      message: /^«Página de la tienda» debe ser una dirección que empiece con https:\/\//,
    },
    {
      body: form("competition", SITE_DEFAULTS.competition, {
        "events.href": ["/clase1", "javascript:void(0)", "", "", ""],
      }),
      field: "sitio-competition-events-1-href",
      message: /^«Enlace» debe ser una dirección https:\/\/ o una página de este sitio/,
    },
    {
      body: form("competition", SITE_DEFAULTS.competition, { dateIso: "2025-02-30" }),
      field: "sitio-competition-dateIso",
      message: "«Fecha (para buscadores y calendarios)» no es una fecha válida (AAAA-MM-DD).",
    },
    {
      body: form("social", { links: ["javascript:alert(1)"] }),
      field: "sitio-social-links",
      message: "Cada enlace debe ser una URL válida que empiece con http:// o https://.",
    },
  ];
  for (const { body, field, message } of cases) {
    const reply = await admin.client.post("/admin/sitio", body);
    expect(reply.status, field).toBe(400);
    const error = fieldError(reply.text, field);
    if (typeof message === "string") expect(error, field).toBe(message);
    else expect(error, field).toMatch(message);
    expect(alertsIn(reply.text), field).toEqual([MESSAGES.siteCheckFields]);
    expect(reply.text).not.toContain('src="javascript:');
  }

  // Too many rows, rows whose columns do not line up, a field the form does not have, a field
  // sent twice, a file where text belongs, an unknown section.
  const odd: Record<string, string | string[]>[] = [
    form("leaders", { leaders: Array.from({ length: 25 }, () => leader) }),
    { ...form("leaders", { leaders: [leader] }), "leaders.name": ["Ana", "Luis"] },
    { ...form("hero", SITE_DEFAULTS.hero), isAdmin: "true" },
    { ...form("hero", SITE_DEFAULTS.hero), title: ["Uno", "Dos"] },
    { intent: "save", section: "hero" },
    { intent: "save", section: "__proto__" },
    { intent: "save" },
    { intent: "hero" },
    { intent: "save", section: "leaders", rowAction: "leaders:remove-99" },
    { intent: "save", section: "leaders", rowAction: "otra:add" },
  ];
  for (const body of odd) {
    const reply = await admin.client.post("/admin/sitio", body);
    expect(reply.status, JSON.stringify(body).slice(0, 120)).toBe(400);
    expect(alertsIn(reply.text).length, JSON.stringify(body).slice(0, 120)).toBe(1);
  }
  const file = new FormData();
  for (const [k, v] of Object.entries(form("hero", SITE_DEFAULTS.hero)))
    if (k !== "title") file.append(k, String(v));
  file.append("title", new Blob(["Ayllu"]), "titulo.txt");
  const multipart = await admin.client.request("POST", "/admin/sitio", { body: file });
  expect(multipart.status).toBe(400);

  expect(await rows()).toEqual(before);
});

test("without JavaScript, rows are added, moved and removed by posting the form back, saving nothing", async () => {
  const before = await rows();
  const two = form("leaders", {
    leaders: [
      { name: "Ana", role: "Mentora", image: "/a.jpg" },
      { name: "Luis", role: "Mentor", image: "/l.jpg" },
    ],
  });
  const moved = await admin.client.post("/admin/sitio", { ...two, rowAction: "leaders:down-0" });
  expect(moved.status).toBe(200);
  expect(moved.text.indexOf('value="Luis"')).toBeLessThan(moved.text.indexOf('value="Ana"'));
  const added = await admin.client.post("/admin/sitio", { ...two, rowAction: "leaders:add" });
  expect(added.text).toContain('id="sitio-leaders-leaders-2-name"');
  const removed = await admin.client.post("/admin/sitio", {
    ...two,
    rowAction: "leaders:remove-0",
  });
  expect(removed.text).not.toContain('value="Ana"');
  expect(removed.text).toContain('value="Luis"');
  const link = await admin.client.post("/admin/sitio", {
    intent: "save",
    section: "social",
    links: ["https://github.com/ayllu"],
    linkAction: "add",
  });
  expect(link.status).toBe(200);
  expect(link.text).toContain('id="sitio-social-links-1"');
  expect(await rows()).toEqual(before);
});

test("the content is read once and kept: pages read no table until it changes", async () => {
  // As the server does at start (its build has its own copy of the module).
  const stop = await watchSiteSections(server.database);
  const first = await loadSiteSections(server.db);
  expect(await loadSiteSections(server.db)).toBe(first);
  await saveSiteSection(server.db, admin.user, "hero", { ...SITE_DEFAULTS.hero, eyebrow: "Hola" });
  const changed = await loadSiteSections(server.db);
  expect(changed).not.toBe(first);
  expect(changed.hero.eyebrow).toBe("Hola");
  // A write from elsewhere (another process, plain SQL) arrives by the table's notification.
  await server.db
    .update(siteSections)
    .set({ content: { ...SITE_DEFAULTS.hero } })
    .where(eq(siteSections.section, "hero"));
  await expect
    .poll(async () => (await loadSiteSections(server.db)).hero.eyebrow)
    .toBe(SITE_DEFAULTS.hero.eyebrow);
  await saveSiteSection(server.db, admin.user, "hero", SITE_DEFAULTS.hero);
  await stop();
  // Not watching, nothing is kept: each call reads the table.
  expect(await loadSiteSections(server.db)).not.toBe(await loadSiteSections(server.db));
});
