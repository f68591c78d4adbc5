// The landing pages stay true (decision 076): /events, /clase1 and the home's cards read the
// events an admin links at /admin/sitio — their name, dates, place, categories, registration,
// sessions, price and seats — and never announce as coming a date that has passed, a year on.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  competitionCategories,
  competitionTeams,
  events,
  eventSessions,
  judgingRuns,
  siteSections,
} from "~/db/schema.server";
import { followSessions } from "~/events/event-sessions.server";
import { formatDateRange, zonedDateTime, zonedToInstant } from "~/kernel/time";
import { loadSiteSections } from "~/site/sections.server";
import { valuesFromSection } from "~/site/section-fields";
import { demoNotes } from "~/site/copy/demo-notes";
import type { User } from "~/db/schema.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const YEAR = 365 * 86_400_000;
const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/** What a person reads: the page without its scripts, tags and React's comments. */
function readable(html: string): string {
  return html
    .replace(/<script[^]*?<\/script>/g, " ")
    .replace(/<style[^]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
}

/** The home's parts that announce: all but the publications (dated when they were published). */
function announcing(html: string, path: string): string {
  if (path !== "/" && path !== "/inicio") return html;
  return html
    .replace(/<section id="articles"[^]*?<\/section>/, " ")
    .replace(/<section id="featured"[^]*?<\/section>/, " ");
}

/**
 * Every date on the page ('6 de diciembre de 2025', a `<time datetime>`) that is before `today`
 * and is not said to have happened ('Se realizó …', 'terminó …').
 */
function pastDatesAnnounced(html: string, today: string): string[] {
  const found: string[] = [];
  // An event card says 'En curso' beside the day an event under way started.
  const ongoing = (at: number, source: string) => source.slice(at, at + 600).includes("En curso");
  for (const m of html.matchAll(/<time[^>]*dateTime="(\d{4}-\d{2}-\d{2})/gi))
    if (
      m[1]! < today &&
      !ongoing(m.index!, html) &&
      !/^[^<]*>(Se realizó|Realizado)/.test(html.slice(m.index! + 5, m.index! + 200))
    )
      found.push(`<time ${m[1]}>`);
  const text = readable(html);
  const pattern = new RegExp(`(\\d{1,2}) de (${MONTHS.join("|")})(?: de (\\d{4}))?`, "g");
  for (const m of text.matchAll(pattern)) {
    // Without a year ('del 4 al 7 de noviembre'), the year is the one written next, if any.
    const year = m[3] ?? /de (\d{4})/.exec(text.slice(m.index!))?.[1];
    if (!year) {
      found.push(m[0]);
      continue;
    }
    const iso = `${year}-${String(MONTHS.indexOf(m[2]!) + 1).padStart(2, "0")}-${m[1]!.padStart(2, "0")}`;
    if (iso >= today) continue;
    const before = text.slice(Math.max(0, m.index! - 80), m.index!);
    if (/Se realizó|terminó/.test(before) || ongoing(m.index!, text)) continue;
    found.push(`${m[0]} — «…${before.slice(-50)}${m[0]}»`);
  }
  return found;
}

describe("a new demo site, a year on (SEED_DEMO=1)", () => {
  let server: TestServer;
  let now = new Date();
  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: "1" }, { now: () => now });
  });
  afterAll(() => server?.close());
  afterEach(() => {
    now = new Date();
  });
  failOnConsoleError();

  test("the demo links its own competition and course, dated from today, marked as demo", async () => {
    const visitor = new BrowserClient(server.url);
    const tz = server.config.siteTimezone;
    const content = await loadSiteSections(server.db);
    const competitionRow = content.competition.events.find((row) => row.eventId);
    expect(competitionRow).toBeDefined();
    const [competition] = await server.db
      .select()
      .from(events)
      .where(eq(events.id, competitionRow!.eventId!));
    const categories = await server.db
      .select()
      .from(competitionCategories)
      .where(eq(competitionCategories.eventId, competition!.id))
      .orderBy(competitionCategories.position);
    expect(categories.map((c) => c.name)).toEqual([
      "Seguidor de línea (clasificatoria)",
      "Robot Sumo",
      "Micromouse",
    ]);
    const teams = await server.db
      .select()
      .from(competitionTeams)
      .where(eq(competitionTeams.eventId, competition!.id));
    expect(teams.length).toBeGreaterThanOrEqual(3);
    for (const team of teams) expect(team.name).toMatch(/de ejemplo/);
    // A finished round: the qualifying time trial has runs and its results are final.
    const qualifying = categories[0]!;
    expect(qualifying.finalAt).not.toBeNull();
    expect(qualifying.startsAt!.getTime()).toBeLessThan(Date.now());
    const runs = await server.db
      .select()
      .from(judgingRuns)
      .where(eq(judgingRuns.categoryId, qualifying.id));
    expect(runs.length).toBeGreaterThanOrEqual(3);
    // The final is still to come.
    expect(competition!.endsAt.getTime()).toBeGreaterThan(Date.now() + 30 * 86_400_000);

    const page = (await visitor.get("/events")).text;
    const text = readable(page);
    expect(text).toContain(competition!.nombreEvento);
    expect(page).toMatch(new RegExp(`<h1>${competition!.nombreEvento}</h1>`));
    expect(text).toContain("Inscripciones abiertas hasta el");
    expect(text).toContain(demoNotes.competition);
    expect(text).toContain("Bolivia, La Paz — Obrajes C2");
    for (const c of categories) expect(page).toContain(`#categoria-${c.id}">${c.name}</a>`);

    // The results of the round that happened, on the competition's page.
    const results = readable((await visitor.get(`/detalles/${competition!.id}`)).text);
    expect(results).toContain("Equipo de ejemplo Cóndor");

    const [course] = await server.db
      .select()
      .from(events)
      .where(eq(events.id, content.course.eventId));
    const dates = formatDateRange(course!.startsAt, course!.endsAt, tz);
    const coursePage = readable((await visitor.get("/clase1")).text);
    expect(coursePage).toContain(dates);
    expect(coursePage).toContain("Gratis");
    expect(coursePage).not.toContain("Del martes 4 al viernes 7 de noviembre");
    const home = readable((await visitor.get("/")).text);
    expect(home).toContain(`${competition!.nombreEvento}, `);
    expect(home).toContain(dates);
    expect(home).toContain(demoNotes.courses);

    // One spelling for people: the stored type is the specification's 'Hibrido', read 'Híbrido'.
    const hybrid = (await server.db.select().from(events)).filter(
      (e) => e.tipoEvento !== "Presencial",
    );
    expect(hybrid.map((e) => e.tipoEvento)).toEqual(["Hibrido"]);
    const list = readable((await visitor.get("/eventos")).text);
    expect(list).toContain("Híbrido");
    expect(list).not.toMatch(/\bHibrido\b/);
  });

  test("a year on, no landing page announces as coming a date that has passed", async () => {
    const visitor = new BrowserClient(server.url);
    // The demo is dated from today: today, nothing it announces has passed.
    const today = zonedDateTime(now, server.config.siteTimezone).date;
    for (const path of ["/", "/events", "/clase1"]) {
      const html = (await visitor.get(path)).text;
      expect(pastDatesAnnounced(announcing(html, path), today), `${path} today`).toEqual([]);
    }
    now = new Date(Date.now() + YEAR);
    const later = zonedDateTime(now, server.config.siteTimezone).date;
    for (const path of ["/", "/inicio", "/events", "/clase1"]) {
      const reply = await visitor.get(path);
      expect(reply.status).toBe(200);
      const html = announcing(reply.text, path);
      expect(pastDatesAnnounced(html, later), path).toEqual([]);
    }
    const competitionPage = (await visitor.get("/events")).text;
    expect(competitionPage).toMatch(/href="\/detalles\/[0-9a-f-]{36}\/resultados">Ver resultados/);
    const competition = readable(competitionPage);
    expect(competition).toContain("Se realizó");
    expect(competition).toContain("Ver resultados");
    expect(competition).not.toContain("Inscripciones abiertas");
    const course = (await visitor.get("/clase1")).text;
    expect(readable(course)).toContain("Este curso ya terminó");
    expect(course).not.toContain("INSCRÍBETE");
  });
});

describe("a site that links its own events (no demo)", () => {
  let server: TestServer;
  let admin: { client: BrowserClient; user: User };
  let now = new Date();
  beforeAll(async () => {
    server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" }, { now: () => now });
    admin = await createAdmin(server);
  });
  afterAll(() => server?.close());
  afterEach(() => {
    now = new Date();
  });
  failOnConsoleError();

  async function save(section: "competition" | "course", changes: Record<string, unknown>) {
    const content = (await loadSiteSections(server.db))[section];
    const values = valuesFromSection(section, { ...content, ...changes }) as Record<
      string,
      string | string[]
    >;
    return admin.client.post("/admin/sitio", { intent: "save", section, ...values });
  }

  test("a fresh site's defaults name no date, and a past date typed by hand is not announced", async () => {
    const visitor = new BrowserClient(server.url);
    const today = zonedDateTime(now, server.config.siteTimezone).date;
    for (const path of ["/", "/events", "/clase1"])
      expect(pastDatesAnnounced((await visitor.get(path)).text, today), path).toEqual([]);
    const saved = await save("competition", {
      edition: "Clash Robotics Edición 2025",
      dateLabel: "6 de diciembre de 2025",
      dateIso: "2025-12-06",
    });
    expect(saved.status).toBe(302);
    const page = (await visitor.get("/events")).text;
    expect(readable(page)).toContain("Clash Robotics Edición 2025");
    expect(readable(page)).not.toContain("6 de diciembre de 2025");
    expect(readable((await visitor.get("/")).text)).not.toContain("6 de diciembre de 2025");
  });

  test("the linked competition heads /events and the home's card with its own name, date, place and categories, and its row is no longer the section's label", async () => {
    const visitor = new BrowserClient(server.url);
    const tz = server.config.siteTimezone;
    const day = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const event = await createTestEvent(server.db, admin.user, {
      nombreEvento: "Clash Robotics 2027",
      fechaEvento: day,
      horaEvento: "09:00",
      ubicacionEspecifica: "Coliseo de la UMSA",
    });
    const [sumo] = await server.db
      .insert(competitionCategories)
      .values({
        eventId: event.id,
        position: 1,
        name: "Robot Sumo",
        level: "secundaria",
        minMembers: 1,
        maxMembers: 3,
        coachRequired: true,
        format: "llaves",
        registrationClosesAt: zonedToInstant(day, "00:00", tz),
      })
      .returning();
    const saved = await save("competition", {
      edition: "Clash Robotics Edición 2025",
      dateLabel: "6 de diciembre de 2025",
      dateIso: "2025-12-06",
      events: [
        { name: "Competencia Colegios", when: "6 Dic", href: "", eventId: event.id },
        { name: "Curso Robot Sumo", when: "", href: "", eventId: "" },
      ],
    });
    expect(saved.status).toBe(302);
    const page = (await visitor.get("/events")).text;
    const text = readable(page);
    expect(page).toContain("<h1>Clash Robotics 2027</h1>");
    expect(page).toContain(`<time dateTime="${day}">`);
    expect(text).toContain("Bolivia, La Paz — Coliseo de la UMSA");
    expect(text).toContain(`Robot Sumo Inscripciones abiertas hasta el`);
    expect(page).toContain(`href="/detalles/${event.id}#categoria-${sumo!.id}">Robot Sumo</a>`);
    expect(page).toContain(`<title>Clash Robotics 2027, `);
    // The linked row is the event's, not the section's label.
    expect(text).not.toContain("Competencia Colegios");
    expect(text).not.toContain("6 Dic");
    expect(text).not.toContain("Edición 2025");
    const home = readable((await visitor.get("/")).text);
    expect(home).toContain(
      `Clash Robotics 2027, ${formatDateRange(event.startsAt, event.endsAt, tz)}`,
    );

    // A year on: it happened, its registration is not offered, its page offers the results.
    now = new Date(Date.now() + YEAR);
    const later = (await visitor.get("/events")).text;
    expect(readable(later)).toContain(
      `Se realizó el ${formatDateRange(event.startsAt, event.endsAt, tz)}`,
    );
    expect(readable(later)).toContain("Realizado");
    expect(readable(later)).not.toContain("Inscripciones abiertas");
    // At /admin/sitio the row still names its event (over), not 'an event no longer available'.
    const form = (await admin.client.get("/admin/sitio?seccion=competition")).text;
    expect(form).toMatch(new RegExp(`value="${event.id}"[^>]*>Clash Robotics 2027 \\(terminó el `));
    expect(form).not.toContain("Un evento que ya no está disponible");
  });

  test("the linked course shows its sessions, price and seats on /clase1 and the home's card; once over, it says so", async () => {
    const visitor = new BrowserClient(server.url);
    const tz = server.config.siteTimezone;
    const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const event = await createTestEvent(server.db, admin.user, {
      nombreEvento: "Curso de Micromouse de enero",
      fechaEvento: day,
      horaEvento: "19:00",
      capacity: "12",
    });
    await server.db.update(events).set({ priceCents: 4500 }).where(eq(events.id, event.id));
    const second = new Date(event.startsAt.getTime() + 86_400_000);
    await server.db.insert(eventSessions).values({
      eventId: event.id,
      startsAt: second,
      endsAt: new Date(second.getTime() + 2 * 3_600_000),
    });
    await followSessions(server.db, event.id, tz);
    const [stored] = await server.db.select().from(events).where(eq(events.id, event.id));
    expect((await save("course", { eventId: event.id })).status).toBe(302);
    const courses = (await loadSiteSections(server.db)).courses;
    const reply = await admin.client.post("/admin/sitio", {
      intent: "save",
      section: "courses",
      ...(valuesFromSection("courses", {
        ...courses,
        current: courses.current.map((row) => ({ ...row, eventId: event.id })),
      }) as Record<string, string | string[]>),
    });
    expect(reply.status).toBe(302);

    const dates = formatDateRange(stored!.startsAt, stored!.endsAt, tz);
    const page = readable((await visitor.get("/clase1")).text);
    expect(page).toContain(dates);
    expect(page).toContain("Bs 45");
    expect(page).toContain("2 sesiones");
    expect(page).toContain("Quedan 12 cupos");
    expect(page).not.toContain("30bs");
    const home = readable((await visitor.get("/")).text);
    expect(home).toContain(dates);
    expect(home).toContain("Bs 45");

    now = new Date(Date.now() + YEAR);
    const later = (await visitor.get("/clase1")).text;
    expect(readable(later)).toContain("Este curso ya terminó");
    expect(readable(later)).toContain(`Se realizó del`);
    expect(later).not.toContain("INSCRÍBETE");
    const laterHome = readable((await visitor.get("/")).text);
    expect(laterHome).toContain("Se realizó del");
    expect(
      pastDatesAnnounced(
        announcing((await visitor.get("/")).text, "/"),
        zonedDateTime(now, tz).date,
      ),
    ).toEqual([]);
  });

  test("nothing on the landing pages changes for a post refused: a member may not link events", async () => {
    const member = await createMember(server);
    const before = await server.db.select().from(siteSections);
    const content = (await loadSiteSections(server.db)).competition;
    const reply = await member.client.post("/admin/sitio", {
      intent: "save",
      section: "competition",
      ...(valuesFromSection("competition", content) as Record<string, string | string[]>),
    });
    expect(reply.status).toBe(403);
    expect(await server.db.select().from(siteSections)).toEqual(before);
  });
});
