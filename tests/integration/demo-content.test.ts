import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appMeta, events, notes, users } from "~/db/schema.server";
import { seedDemoSite } from "~/demo.server";
import { DEMO_SECTIONS } from "~/site/copy/demo-sections";
import { demoNotes } from "~/site/copy/demo-notes";
import { SITE_DEFAULTS } from "~/site/copy/section-defaults";
import { isHttpUrl } from "~/kernel/checks";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { socialLinks, type SiteSectionKey } from "~/site/sections";
import { valuesFromSection } from "~/site/section-fields";
import {
  DEMO_SECTIONS_KEY,
  loadDemoSections,
  loadSiteSections,
  saveSiteSection,
  seedSiteSections,
} from "~/site/sections.server";
import { MESSAGES } from "~/messages";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { alertsIn, createAdmin, landOn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

// The demo content of a new install (`npm start`): dated from the day it is made, so an upcoming
// demo event is upcoming, a past one is past, and a year in a name is the year of its date; and
// every landing section of the specification filled, marked as demo until an admin saves it
// (docs/decisions/042-demo-sections.md).
let database: TestDatabase;
const seededAt = new Date();

const DEMO_KEYS: SiteSectionKey[] = [
  "leaders",
  "allies",
  "sponsors",
  "courses",
  "competition",
  "course",
  "social",
];

beforeAll(async () => {
  database = await createTestDatabase();
  // As the server starts: the demo first, then the defaults for every other section.
  expect(await seedDemoSite(database.db)).toBe(true);
  await seedSiteSections(database.db);
});
afterAll(() => database.close());

/** The notice at the top of /admin/sitio: the demo sections' links. */
const demoNotice = (html: string) => /<div class="demo-notice"[^]*?<\/div>/.exec(html)?.[0] ?? "";

/** The demo's sentence as React writes it into the page. */
const escaped = (text: string) => text.replaceAll("'", "&#x27;").replaceAll('"', "&quot;");

describe("demo content", () => {
  it("is seeded once", async () => {
    expect(await seedDemoSite(database.db)).toBe(false);
  });

  it("has upcoming and past events, each named with the year of its own date", async () => {
    const rows = await database.db.select().from(events);
    const upcoming = rows.filter((e) => e.startsAt > seededAt);
    const past = rows.filter((e) => e.startsAt < seededAt);
    expect(upcoming.length).toBeGreaterThanOrEqual(2);
    expect(past.length).toBeGreaterThanOrEqual(1);
    for (const event of rows) {
      for (const year of event.nombreEvento.match(/\b20\d\d\b/g) ?? []) {
        expect(year, event.nombreEvento).toBe(event.fechaEvento.slice(0, 4));
      }
    }
  });

  it("never announces as coming a date that has passed", async () => {
    const rows = await database.db.select().from(notes);
    for (const note of rows) {
      const text = `${note.titulo} ${note.texto}`;
      if (!/\bse viene\b|\bpróxim/i.test(text)) continue;
      for (const year of text.match(/\b20\d\d\b/g) ?? []) {
        expect(Number(year), text).toBeGreaterThanOrEqual(seededAt.getUTCFullYear());
      }
    }
  });

  it("fills every section a real site hides until it has content, and marks each as demo", async () => {
    const content = await loadSiteSections(database.db);
    expect(content.leaders.leaders).toHaveLength(5);
    expect(content.allies.allies).toHaveLength(3);
    expect(content.sponsors.sponsors.length).toBeGreaterThanOrEqual(2);
    expect(content.sponsors.intro).not.toBe("");
    // 'Our Talks' opens the YouTube link among the social links.
    expect(socialLinks(content.social).map((l) => l.label)).toContain("YouTube");
    // INSCRÍBETE and its dialog: the registration form and the group.
    expect(isHttpUrl(content.course.formHref)).toBe(true);
    expect(isHttpUrl(content.course.groupHref)).toBe(true);
    // The rest of the course page is the specification's own, as on a real site, registering in
    // the demo course (decision 076).
    const [demoCourse] = await database.db
      .select()
      .from(events)
      .where(eq(events.id, content.course.eventId));
    expect(demoCourse!.nombreEvento).toMatch(/curso preparatorio de Micromouse/);
    expect({ ...content.course, formHref: "", groupHref: "", eventId: "" }).toEqual(
      SITE_DEFAULTS.course,
    );
    expect(content.hero).toEqual(SITE_DEFAULTS.hero);
    expect(await loadDemoSections(database.db)).toEqual(DEMO_KEYS);
  });

  it("names no real person or organisation, and no link passes for the community's", async () => {
    const { leaders, allies, sponsors, course, social } = DEMO_SECTIONS;
    for (const item of [...leaders.leaders, ...allies.allies, ...sponsors.sponsors])
      expect(item.name).toMatch(/de ejemplo/);
    for (const href of [course.formHref, course.groupHref])
      expect(new URL(href).hostname).toBe("example.org");
    for (const href of social.links) expect(new URL(href).pathname).toBe("/results");
    // The pictures are the demo's own files, light ones.
    for (const image of [
      ...leaders.leaders.map((l) => l.image),
      ...allies.allies.map((a) => a.logo),
      ...sponsors.sponsors.map((s) => s.logo),
    ]) {
      expect(image).toMatch(/^\/demo\/[\w-]+\.svg$/);
      const file = path.join(PROJECT_ROOT, "public", image);
      expect(fs.statSync(file).size, image).toBeLessThan(2_000);
      expect(fs.readFileSync(file, "utf8"), image).not.toMatch(/<text|font-family/);
    }
  });

  it("leaves a section alone that already has a row, and marks only what it wrote", async () => {
    const other = await createTestDatabase();
    try {
      await seedSiteSections(other.db);
      expect(await seedDemoSite(other.db)).toBe(true);
      expect((await loadSiteSections(other.db)).leaders.leaders).toEqual([]);
      expect(await loadDemoSections(other.db)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("is no longer demo once an admin saves it, even unchanged", async () => {
    const [admin] = await database.db
      .insert(users)
      .values({
        issuer: "https://demo.invalid",
        subject: "admin",
        email: "admin-demo@example.com",
        emailVerified: true,
        nombreCompleto: "Admin Demo",
        isAdmin: true,
      })
      .returning();
    await saveSiteSection(database.db, admin, "allies", DEMO_SECTIONS.allies);
    expect(await loadDemoSections(database.db)).toEqual(
      DEMO_KEYS.filter((key) => key !== "allies"),
    );
    // The list is what the demo wrote; what is demo now also asks whether an admin saved it.
    const [meta] = await database.db
      .select()
      .from(appMeta)
      .where(eq(appMeta.key, DEMO_SECTIONS_KEY));
    expect(JSON.parse(meta!.value)).toEqual(DEMO_KEYS);
  });
});

describe("a site without the demo (production, SEED_DEMO=0)", () => {
  it("has no demo content and nothing marked as demo", async () => {
    const plain = await createTestDatabase();
    try {
      await seedSiteSections(plain.db);
      const content = await loadSiteSections(plain.db);
      expect(content.leaders.leaders).toEqual([]);
      expect(content.allies.allies).toEqual([]);
      expect(content.sponsors.sponsors).toEqual([]);
      expect(content.social.links).toEqual([]);
      expect(content.course.formHref).toBe("");
      expect(await loadDemoSections(plain.db)).toEqual([]);
      expect(await plain.db.select().from(appMeta)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe("the demo's pages (a server started with SEED_DEMO=1)", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof createAdmin>>;

  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: "1", ADMIN_EMAILS: "jefa@example.com" });
    admin = await createAdmin(server);
  });
  afterAll(() => server?.close());

  it("show Community, Our Talks and INSCRÍBETE, each marked as demo, and /admin/sitio says which", async () => {
    const visitor = new BrowserClient(server.url);
    const home = (await visitor.get("/")).text;
    expect(home).toContain('id="community"');
    expect(home).toContain('href="/#community"');
    for (const name of ["Ambassador Members", "Allies", "Sponsors", "Our Talks"])
      expect(home).toContain(name);
    for (const leader of DEMO_SECTIONS.leaders.leaders) {
      expect(home).toContain(leader.name);
      expect(home).toContain(`src="${leader.image}"`);
    }
    expect(home).toContain(escaped(demoNotes.leaders));
    expect(home).toContain(escaped(demoNotes.organisations));
    expect(home).toContain(escaped(demoNotes.talks));
    expect(home).toContain(escaped(demoNotes.footer));
    expect(home).toContain(`href="${DEMO_SECTIONS.social.links[0]!.replaceAll("&", "&amp;")}"`);

    const course = (await visitor.get("/clase1")).text;
    expect(course).toContain("INSCRÍBETE");
    expect(course).toContain(escaped(demoNotes.course));
    const competition = (await visitor.get("/events")).text;
    expect(competition).toContain(escaped(demoNotes.organisations));

    const notice = demoNotice((await admin.client.get("/admin/sitio")).text);
    expect(notice).toContain("Contenido de demostración");
    expect(
      [...notice.matchAll(/seccion=(\w+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]),
    ).toEqual([
      ["leaders", "Líderes"],
      ["allies", "Aliados"],
      ["sponsors", "Patrocinadores"],
      ["courses", "Cursos"],
      ["competition", "Competencia"],
      ["course", "Curso (/clase1)"],
      ["social", "Redes sociales"],
    ]);
    expect((await admin.client.get("/admin/sitio?seccion=leaders")).text).toContain(
      escaped(demoNotes.adminSection),
    );
    expect((await admin.client.get("/admin/sitio?seccion=hero")).text).not.toContain(
      escaped(demoNotes.adminSection),
    );
  });

  it("stop marking a section once an admin saves it at /admin/sitio", async () => {
    const body = {
      intent: "save",
      section: "leaders",
      ...(valuesFromSection("leaders", DEMO_SECTIONS.leaders) as Record<string, string[]>),
      "leaders.name": DEMO_SECTIONS.leaders.leaders.map((l, i) => (i === 0 ? "Ana" : l.name)),
    };
    const reply = await admin.client.post("/admin/sitio", body);
    expect(reply.status, reply.text.slice(0, 300)).toBe(302);
    expect(pathOf(reply.location)).toBe("/admin/sitio?seccion=leaders");
    const landed = await landOn(admin.client, reply);
    expect(alertsIn(landed.text)).toEqual([MESSAGES.siteSaved]);
    expect(landed.text).not.toContain(escaped(demoNotes.adminSection));
    expect(demoNotice(landed.text)).toContain("Aliados");
    expect(demoNotice(landed.text)).not.toContain("Líderes");

    const home = (await new BrowserClient(server.url).get("/")).text;
    expect(home).toContain(">Ana<");
    expect(home).not.toContain(escaped(demoNotes.leaders));
    // The other parts are still the demo's.
    expect(home).toContain(escaped(demoNotes.organisations));
    expect(home).toContain(escaped(demoNotes.talks));
  });
});
