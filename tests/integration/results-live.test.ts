// Issue 39, point 3 (decision 058): a competition's results page and its projector view, public
// and with nothing personal; a judge's entry reaches every open stream within a second, ranked
// once; streams are capped per client address; without scripts and in light mode the pages
// refresh by themselves. On the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  competitionCategories,
  competitionTeams,
  participations,
  schools,
  teamInspections,
  teamMembers,
  users,
  type User,
} from "~/db/schema.server";
import { enterRun } from "~/competitions/judging/entries.server";
import type { CategoryResults } from "~/competitions/judging/results.server";
import { grantRole, loadGrants } from "~/members/roles.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { makeCompete } from "../helpers/competitions";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
failOnConsoleError();

beforeAll(async () => {
  server = await startTestServer({
    ADMIN_EMAILS: "jefa@example.com",
    RESULTS_STREAMS_PER_ADDRESS: "3",
  });
  admin = await createAdmin(server);
}, 120_000);
afterAll(() => server?.close());

const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&quot;", '"');

/** A competition with a time trial and a score sheet category, and two teams in the first. */
async function competition() {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Clash Robotics ${randomUUID().slice(0, 4)}`,
  });
  const categories = await server.db
    .insert(competitionCategories)
    .values(
      [
        { name: "Seguidor de línea", format: "tiempo", position: 1, attempts: 2 },
        { name: "Desafío escolar", format: "puntaje", position: 2 },
      ].map((c) => ({
        ...c,
        eventId: event.id,
        level: "secundaria",
        minMembers: 1,
        maxMembers: 3,
        coachRequired: false,
        registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      })),
    )
    .returning({ id: competitionCategories.id });
  const line = categories[0]!.id;
  const [school] = await server.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const teams: string[] = [];
  for (const [name, member] of [
    ["Los Cóndores", "Ana Quispe Mamani"],
    ["Los Pumas", "Beto Choque Rojas"],
  ] as const) {
    const [row] = await server.db
      .insert(competitionTeams)
      .values({
        eventId: event.id,
        categoryId: line,
        name,
        schoolId: school!.id,
        city: "La Paz",
        robotName: "Rayo",
        status: "approved",
      })
      .returning({ id: competitionTeams.id });
    const someone = await createMember(server, `${randomUUID()}@example.com`, member);
    await server.db
      .update(users)
      .set({ nombreCompleto: member, fechaNacimiento: "2010-03-04" })
      .where(eq(users.id, someone.user.id));
    await server.db
      .insert(teamMembers)
      .values({ teamId: row!.id, userId: someone.user.id, categoryId: line });
    teams.push(row!.id);
  }
  // They compete: checked in at the door, their robots passed (decision 055).
  await makeCompete(server.db, teams);
  const judge = await createMember(server, `jurado-${randomUUID()}@example.com`, "Julia Jurado");
  await grantRole(server.db, admin.user, {
    userId: judge.user.id,
    kind: "judge",
    eventId: event.id,
    categoryId: line,
  });
  const judgeActor = { ...judge.user, grants: await loadGrants(server.db, judge.user.id) };
  return { eventId: event.id, line, sheet: categories[1]!.id, teams, judge: judgeActor };
}

/** An open stream: the frames it received, and a wait for the next `results` frame. */
function openStream(eventId: string): Promise<{
  status: number;
  body: string;
  next: (timeoutMs?: number) => Promise<CategoryResults>;
  close: () => void;
}> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(`/detalles/${eventId}/resultados/en-vivo`, server.url),
      (res) => {
        let buffer = "";
        let waiting: ((r: CategoryResults) => void) | null = null;
        const frames: CategoryResults[] = [];
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^event: results\ndata: (.*)$/m.exec(frame);
            if (!data) continue;
            const parsed = JSON.parse(data[1]!) as CategoryResults;
            if (waiting) {
              const w = waiting;
              waiting = null;
              w(parsed);
            } else frames.push(parsed);
          }
        });
        const done = () => resolve(result);
        const result = {
          status: res.statusCode ?? 0,
          body: "",
          next: (timeoutMs = 5000) =>
            new Promise<CategoryResults>((ok, fail) => {
              const ready = frames.shift();
              if (ready) return ok(ready);
              const timer = setTimeout(() => {
                // A frame after the timeout waits for the next call, not this one.
                waiting = null;
                fail(new Error("sin resultados en vivo"));
              }, timeoutMs);
              waiting = (r) => {
                clearTimeout(timer);
                ok(r);
              };
            }),
          close: () => request.destroy(),
        };
        if (res.statusCode !== 200) {
          res.on("end", () => {
            result.body = buffer;
            done();
          });
          res.resume();
        } else {
          // The first comment says the stream is open.
          res.once("data", done);
        }
      },
    );
    request.on("error", reject);
  });
}

test("the results page shows every category's ranking with public names only, and its tie rule", async () => {
  const { eventId } = await competition();
  const reply = await new BrowserClient(server.url).get(`/detalles/${eventId}/resultados`);
  expect(reply.status).toBe(200);
  const page = text(reply.text);
  expect(page).toContain("Seguidor de línea");
  expect(page).toContain("Desafío escolar");
  expect(page).toContain("Los Cóndores");
  expect(page).toContain("Ana Q.");
  expect(page).not.toContain("Mamani");
  expect(page).not.toContain("@example.com");
  expect(page).not.toContain("2010-03-04");
  expect(page).toContain("Desempate:");
  // Without scripts it asks again every 30 seconds.
  expect(page).toMatch(/<noscript><meta http-equiv="refresh" content="30"\/><\/noscript>/);
  expect(
    (await new BrowserClient(server.url).get(`/detalles/${randomUUID()}/resultados`)).status,
  ).toBe(404);
  expect((await new BrowserClient(server.url).get(`/detalles/no-es-un-id/resultados`)).status).toBe(
    404,
  );
});

test("in light mode the results page refreshes every 30 seconds by itself, with no script", async () => {
  const { eventId } = await competition();
  const client = new BrowserClient(server.url);
  client.cookies.set("liviano", "1");
  const page = text((await client.get(`/detalles/${eventId}/resultados`)).text);
  expect(page).toContain('<meta http-equiv="refresh" content="30"/>');
  expect(page).not.toContain("<noscript>");
  expect(page).not.toContain('type="module"');
  expect(page).toContain("La página se actualiza cada 30 segundos.");
});

test("a judge's run reaches every open stream, ranked, with nothing personal", async () => {
  const { eventId, line, teams, judge } = await competition();
  const viewers = await Promise.all([openStream(eventId), openStream(eventId)]);
  expect(viewers.map((v) => v.status)).toEqual([200, 200]);
  const started = performance.now();
  const entered = await enterRun(server.db, judge, line, {
    teamId: teams[1],
    attempt: 1,
    timeMs: "12345",
    penaltyMs: "0",
    clientEntryId: randomUUID(),
  });
  expect(entered.outcome).toBe("saved");
  for (const viewer of viewers) {
    const results = await viewer.next();
    expect(results.category.id).toBe(line);
    expect(results.rows[0]).toMatchObject({ team: "Los Pumas", place: 1, best: 12345 });
    const raw = JSON.stringify(results);
    expect(raw).not.toContain("Rojas");
    expect(raw).not.toContain("@example.com");
    viewer.close();
  }
  console.info(
    `resultados en vivo: ${(performance.now() - started).toFixed(0)} ms hasta la última pantalla`,
  );
});

test("a team that comes to compete (its members through the door, its robot passed), one whose robot then fails and one withdrawn reach the open streams", async () => {
  const { eventId, line, teams } = await competition();
  const viewer = await openStream(eventId);
  // Closed however it ends: the next test counts this address's streams.
  try {
    /** The next frame of the category whose teams are `names`, skipping the ones on the way. */
    const untilTeams = async (names: string[]) => {
      for (;;) {
        const results = await viewer.next();
        if (results.category.id !== line) continue;
        const shown = results.rows.map((r) => r.team).sort();
        if (JSON.stringify(shown) === JSON.stringify([...names].sort())) return results;
      }
    };
    /** Until no frame has come for half a second. */
    const quiet = async () => {
      for (;;) {
        try {
          await viewer.next(500);
        } catch {
          return;
        }
      }
    };
    const [school] = await server.db
      .insert(schools)
      .values({ name: `Colegio ${randomUUID()}` })
      .returning({ id: schools.id });
    const [zorros] = await server.db
      .insert(competitionTeams)
      .values({
        eventId,
        categoryId: line,
        name: "Los Zorros",
        schoolId: school!.id,
        city: "El Alto",
        robotName: "Chispa",
        status: "approved",
      })
      .returning({ id: competitionTeams.id });
    // Its robot passed, but its member has not come through the door: not in play yet.
    const member = await createMember(server, `${randomUUID()}@example.com`, "Zoe Zárate");
    await server.db
      .insert(teamMembers)
      .values({ teamId: zorros!.id, userId: member.user.id, categoryId: line });
    await server.db
      .insert(teamInspections)
      .values({ teamId: zorros!.id, result: "passed", inspectedByName: "Pedro Puerta" });
    await untilTeams(["Los Cóndores", "Los Pumas"]);
    // Every ranking those changes asked for has been sent: what comes next, the check-in's.
    await quiet();
    // The door lets the member in (as its page writes it): the team is in play.
    await server.db
      .insert(participations)
      .values({ userId: member.user.id, eventId, seat: false, checkedInAt: new Date() });
    await untilTeams(["Los Cóndores", "Los Pumas", "Los Zorros"]);
    // A visitor's copy of the results page (kept by the page cache) has the three teams.
    const visitor = new BrowserClient(server.url);
    const page = async () => text((await visitor.get(`/detalles/${eventId}/resultados`)).text);
    expect(await page()).toContain("Los Pumas");
    await server.db
      .insert(teamInspections)
      .values({ teamId: teams[1]!, result: "failed", inspectedByName: "Pedro Puerta" });
    await untilTeams(["Los Cóndores", "Los Zorros"]);
    // The robot failed: the visitor's copy is dropped, the page no longer lists the team.
    await expect.poll(page, { timeout: 5000 }).not.toContain("Los Pumas");
    await server.db
      .update(competitionTeams)
      .set({ status: "withdrawn" })
      .where(eq(competitionTeams.id, teams[0]!));
    await untilTeams(["Los Zorros"]);
  } finally {
    viewer.close();
  }
});

test("streams are capped per client address; a malformed competition is not found and only GET is answered", async () => {
  const { eventId } = await competition();
  const open = await Promise.all([openStream(eventId), openStream(eventId), openStream(eventId)]);
  expect(open.map((v) => v.status)).toEqual([200, 200, 200]);
  const refused = await openStream(eventId);
  expect(refused.status).toBe(429);
  expect(refused.body).toContain("la página se actualiza sola");
  for (const v of open) v.close();
  // A closed stream frees its place.
  await new Promise((r) => setTimeout(r, 200));
  const again = await openStream(eventId);
  expect(again.status).toBe(200);
  again.close();
  const client = new BrowserClient(server.url);
  expect((await client.get("/detalles/no-es-un-id/resultados/en-vivo")).status).toBe(404);
  expect((await client.post(`/detalles/${eventId}/resultados/en-vivo`, {})).status).toBe(405);
});

test("the projector shows one category at a time and, without scripts, moves on to the next on refresh", async () => {
  const { eventId } = await competition();
  const client = new BrowserClient(server.url);
  const first = text((await client.get(`/detalles/${eventId}/resultados/pantalla`)).text);
  expect(first).toMatch(/<h2[^>]*>Seguidor de línea<\/h2>/);
  expect(first).not.toMatch(/<h2[^>]*>Desafío escolar<\/h2>/);
  expect(first).toContain(`content="15;url=/detalles/${eventId}/resultados/pantalla?orden=2"`);
  const second = text((await client.get(`/detalles/${eventId}/resultados/pantalla?orden=2`)).text);
  expect(second).toMatch(/<h2[^>]*>Desafío escolar<\/h2>/);
  expect(second).toContain(`content="15;url=/detalles/${eventId}/resultados/pantalla?orden=1"`);
  // A position out of range is the first.
  const odd = text((await client.get(`/detalles/${eventId}/resultados/pantalla?orden=x`)).text);
  expect(odd).toMatch(/<h2[^>]*>Seguidor de línea<\/h2>/);
  // A projector's address kept from before, when the position was `?categoria=`, moves for good.
  const kept = await fetch(
    new URL(`/detalles/${eventId}/resultados/pantalla?categoria=2`, server.url),
    { redirect: "manual" },
  );
  expect([kept.status, kept.headers.get("location")]).toEqual([
    301,
    `/detalles/${eventId}/resultados/pantalla?orden=2`,
  ]);
});
