// Issue 39, points 1–2 (decision 059): the judge's screen over HTTP, on a real server and
// database. For each format its page (which works without JavaScript) and its data route (the
// phone's queue): saved, a resend with the same entry id ('Ya estaba anotado'), a second judge's
// different entry (a conflict: the first stands), an organiser's correction, and every refusal —
// out-of-range times, a match not due, a bye, a team not in play, a final category, people the
// rules refuse, malformed bodies and ids, values too long — in Spanish with a 4xx and nothing
// stored, never a 500. Runs on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
import { randomUUID } from "node:crypto";
import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditLog,
  bracketDraws,
  bracketRounds,
  competitionCategories,
  competitionTeams,
  judgingRuns,
  schools,
  scoreSheets,
  users,
  type User,
} from "~/db/schema.server";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { markFinal, seedBracket } from "~/competitions/judging/organise.server";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { grantRole, loadGrants } from "~/members/roles.server";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import { BrowserClient } from "../helpers/browser-client";
import { makeCompete } from "../helpers/competitions";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

/** What a person reads: the text without its tags. */
const words = (html: string) =>
  html
    .replaceAll("<!-- -->", "")
    .replace(/<[^>]*>/g, "")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'");

async function person(name: string): Promise<Person> {
  const p = await createMember(server, `${randomUUID()}@example.com`, name);
  await server.db.update(users).set({ nombreCompleto: name }).where(eq(users.id, p.user.id));
  return { ...p, user: { ...p.user, nombreCompleto: name } };
}

const asActor = async (p: Person) => ({
  ...p.user,
  grants: await loadGrants(server.db, p.user.id),
});

/** A competition with one category of `format`, its organiser, a judge, a second judge, door staff. */
async function competition(
  format: "tiempo" | "llaves" | "puntaje",
  extra: Partial<typeof competitionCategories.$inferInsert> = {},
) {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Copa ${randomUUID().slice(0, 4)}`,
  });
  const [made] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name: { tiempo: "Seguidor de línea", llaves: "Robot Sumo", puntaje: "Reto escolar" }[format],
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format,
      ...extra,
    })
    .returning({ id: competitionCategories.id });
  const categoryId = made!.id;
  const organiser = await person("Olga Organiza");
  const judge = await person("Julia Jueza");
  const judge2 = await person("Javier Juez");
  const door = await person("Pedro Puerta");
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  for (const j of [judge, judge2])
    await grantRole(server.db, admin.user, {
      userId: j.user.id,
      kind: "judge",
      eventId: event.id,
      categoryId,
    });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  const page = `/admin/eventos/${event.id}/jurado/${categoryId}`;
  return {
    eventId: event.id,
    categoryId,
    organiser,
    judge,
    judge2,
    door,
    page,
    data: `${page}/datos`,
  };
}

/** A team of the category; approved ones compete (checked in, robot passed) unless told. */
async function team(
  c: { eventId: string; categoryId: string },
  name: string,
  options: { compete?: boolean; status?: string } = {},
) {
  const [school] = await server.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const [made] = await server.db
    .insert(competitionTeams)
    .values({
      eventId: c.eventId,
      categoryId: c.categoryId,
      name,
      schoolId: school!.id,
      city: "La Paz",
      robotName: "Illimani",
      status: options.status ?? "approved",
    })
    .returning({ id: competitionTeams.id });
  if (options.compete !== false) await makeCompete(server.db, [made!.id]);
  return made!.id;
}

/** Everything an entry could change. */
async function stored() {
  return {
    runs: await server.db.select().from(judgingRuns).orderBy(asc(judgingRuns.id)),
    rounds: await server.db.select().from(bracketRounds).orderBy(asc(bracketRounds.id)),
    sheets: await server.db.select().from(scoreSheets).orderBy(asc(scoreSheets.id)),
    draws: await server.db.select().from(bracketDraws).orderBy(asc(bracketDraws.categoryId)),
    audit: (await server.db.select({ n: count() }).from(auditLog))[0]!.n,
  };
}

async function post(
  p: Person | BrowserClient,
  path: string,
  fields: Record<string, string | string[]>,
) {
  const client = p instanceof BrowserClient ? p : p.client;
  // An entry carries the id its screen gave it (a fresh one unless the test names it; "": none).
  const entry = ["vuelta", "ronda", "hoja"].includes(fields.intent as string);
  const reply = await client.post(
    path,
    entry && !("anotacion" in fields) ? { ...fields, anotacion: randomUUID() } : fields,
  );
  let body: unknown = null;
  try {
    body = JSON.parse(reply.text);
  } catch {
    body = reply.text;
  }
  return { status: reply.status, body, reply };
}

const board = async (p: Person, path: string) =>
  JSON.parse((await p.client.get(path)).text) as JudgeBoard;

// ——— Time trial ———

test("time trial: a judge's run is saved, a resend is 'Ya estaba anotado', another judge's different time is a conflict and an organiser's is a correction; the screen's data follows", async () => {
  const c = await competition("tiempo");
  const condores = await team(c, "Los Cóndores");
  const pumas = await team(c, "Los Pumas");
  await team(c, "Pendientes", { status: "pending", compete: false });
  await team(c, "Sin inspección", { compete: false });

  const first = await board(c.judge, c.data);
  expect(first.category).toMatchObject({
    name: "Seguidor de línea",
    format: "tiempo",
    attempts: 3,
    final: false,
  });
  expect(first.category.tieRuleLabel).toBe("Segundo mejor tiempo");
  expect(first.role).toBe("judge");
  expect(first.organiser).toBe(false);
  // Only the teams that compete: not the pending one, nor the one whose robot was not inspected.
  expect(first.teams.map((t) => t.name)).toEqual(["Los Cóndores", "Los Pumas"]);

  const id = randomUUID();
  const run = {
    intent: "vuelta",
    anotacion: id,
    equipo: condores,
    vuelta: "1",
    tiempo: "12,345",
    penalizacion: "",
  };
  const saved = await post(c.judge, c.data, run);
  expect(saved.status).toBe(200);
  expect(saved.body).toEqual({ ok: true, outcome: "saved", message: "Anotado." });
  expect(saved.reply.headers.get("Cache-Control")).toBe("no-store");
  const again = await post(c.judge, c.data, run);
  expect(again.body).toEqual({ ok: true, outcome: "same", message: "Ya estaba anotado." });
  // The same run typed again by the other judge with a dot: the same result.
  const dotted = await post(c.judge2, c.data, {
    ...run,
    anotacion: randomUUID(),
    tiempo: "12.345",
  });
  expect(dotted.body).toMatchObject({ outcome: "same" });
  const conflict = await post(c.judge2, c.data, {
    ...run,
    anotacion: randomUUID(),
    tiempo: "12,9",
  });
  expect(conflict.status).toBe(200);
  expect(conflict.body).toEqual({
    ok: true,
    outcome: "conflict",
    message: JUDGING_MESSAGES.outcomeConflict,
  });
  expect(JUDGING_MESSAGES.outcomeConflict).toContain(
    "queda la primera anotación y la organización decidirá",
  );
  // A run that did not finish, with penalties.
  const dnf = await post(c.judge, c.data, {
    intent: "vuelta",
    anotacion: randomUUID(),
    equipo: pumas,
    vuelta: "1",
    tiempo: "",
    noTermino: "1",
    penalizacion: "2,5",
  });
  expect(dnf.body).toMatchObject({ outcome: "saved" });
  const runs = await server.db
    .select()
    .from(judgingRuns)
    .where(eq(judgingRuns.categoryId, c.categoryId))
    .orderBy(asc(judgingRuns.enteredAt));
  expect(runs.map((r) => [r.timeMs, r.penaltyMs, r.state, r.clientEntryId === id])).toEqual([
    [12345, 0, "standing", true],
    [12900, 0, "conflict", false],
    [null, 2500, "standing", false],
  ]);
  const after = await board(c.judge, c.data);
  expect(after.runs).toEqual(
    expect.arrayContaining([
      { teamId: condores, attempt: 1, timeMs: 12345, penaltyMs: 0, conflict: false },
      { teamId: condores, attempt: 1, timeMs: 12900, penaltyMs: 0, conflict: true },
    ]),
  );
  expect(after.ranking[0]).toEqual({ teamId: condores, place: 1 });

  // The organiser corrects it: the new time counts, the old one is replaced and audited.
  const before = (await stored()).audit;
  const corrected = await post(c.organiser, c.data, {
    ...run,
    anotacion: randomUUID(),
    tiempo: "12,000",
  });
  expect(corrected.body).toEqual({
    ok: true,
    outcome: "corrected",
    message: JUDGING_MESSAGES.outcomeCorrected,
  });
  expect((await stored()).audit).toBe(before + 1);
  expect((await board(c.organiser, c.data)).role).toBe("organiser");

  // A correction names the run its screen showed (`visto`): made over 12,345 s when 12,000 s
  // stands now (another organiser corrected it meanwhile), it overwrites nothing.
  const stale = await post(c.organiser, c.data, {
    ...run,
    anotacion: randomUUID(),
    tiempo: "11",
    visto: "12345+0",
  });
  expect(stale.body).toMatchObject({ ok: true, outcome: "conflict" });
  expect((await stored()).audit).toBe(before + 1);
  const current = await post(c.organiser, c.data, {
    ...run,
    anotacion: randomUUID(),
    tiempo: "11,5",
    visto: "12000+0",
  });
  expect(current.body).toMatchObject({ ok: true, outcome: "corrected" });
  expect((await stored()).audit).toBe(before + 2);
  const firstRun = (await board(c.organiser, c.data)).runs.filter(
    (r) => r.teamId === condores && r.attempt === 1,
  );
  expect(firstRun).toEqual(
    expect.arrayContaining([
      { teamId: condores, attempt: 1, timeMs: 11500, penaltyMs: 0, conflict: false },
      { teamId: condores, attempt: 1, timeMs: 11000, penaltyMs: 0, conflict: true },
    ]),
  );
  expect(firstRun.filter((r) => !r.conflict)).toHaveLength(1);

  // An organiser's run made where their screen showed none for it (offline, while a judge
  // entered it) corrects nothing: it is a second entry, for the organisers to decide.
  const judged = await post(c.judge, c.data, { ...run, anotacion: randomUUID(), vuelta: "2" });
  expect(judged.body).toMatchObject({ outcome: "saved" });
  const unseen = await post(c.organiser, c.data, {
    ...run,
    anotacion: randomUUID(),
    vuelta: "2",
    tiempo: "15",
    sinVer: "1",
  });
  expect(unseen.body).toEqual({
    ok: true,
    outcome: "conflict",
    message: JUDGING_MESSAGES.outcomeConflict,
  });
  expect((await stored()).audit).toBe(before + 2);
  const second = (await board(c.organiser, c.data)).runs.filter(
    (r) => r.teamId === condores && r.attempt === 2,
  );
  expect(second).toEqual([
    { teamId: condores, attempt: 2, timeMs: 12345, penaltyMs: 0, conflict: false },
    { teamId: condores, attempt: 2, timeMs: 15000, penaltyMs: 0, conflict: true },
  ]);
  // Unseen but the same time: nothing to decide.
  const sameUnseen = await post(c.organiser, c.data, {
    ...run,
    anotacion: randomUUID(),
    vuelta: "2",
    sinVer: "1",
  });
  expect(sameUnseen.body).toMatchObject({ outcome: "same" });
});

test("time trial: out-of-range and mistyped times, a team not in play, a run the category does not count are refused in Spanish with nothing stored", async () => {
  const c = await competition("tiempo", { attempts: 2 });
  const condores = await team(c, "Los Cóndores");
  const absent = await team(c, "Ausentes", { compete: false });
  const other = await competition("tiempo");
  const foreign = await team(other, "De otra copa");
  const base = { intent: "vuelta", equipo: condores, vuelta: "1", tiempo: "10", penalizacion: "" };
  const cases: Array<[Record<string, string>, number, string]> = [
    [{ tiempo: "0" }, 400, JUDGING_MESSAGES.timeOutOfRange],
    [{ tiempo: "3600,001" }, 400, JUDGING_MESSAGES.timeOutOfRange],
    [{ tiempo: "12,3456" }, 400, JUDGING_MESSAGES.timeMalformed],
    [{ tiempo: "doce" }, 400, JUDGING_MESSAGES.timeMalformed],
    [{ tiempo: "-1" }, 400, JUDGING_MESSAGES.timeMalformed],
    [{ tiempo: "" }, 400, JUDGING_MESSAGES.timeMissing],
    [{ penalizacion: "601" }, 400, JUDGING_MESSAGES.penaltyOutOfRange],
    [{ penalizacion: "1,2,3" }, 400, JUDGING_MESSAGES.penaltyMalformed],
    [{ vuelta: "3" }, 400, JUDGING_MESSAGES.attemptOutOfRange],
    [{ vuelta: "0" }, 400, JUDGING_MESSAGES.attemptOutOfRange],
    [{ vuelta: "x" }, 400, JUDGING_MESSAGES.attemptMissing],
    [{ equipo: "" }, 400, JUDGING_MESSAGES.teamMissing],
    [{ equipo: absent }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ equipo: foreign }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ equipo: "no-es-un-id" }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ equipo: randomUUID() }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ anotacion: "" }, 400, JUDGING_MESSAGES.entryIdMissing],
    [{ visto: "doce segundos" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ visto: "12345" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ visto: "" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ anotacion: "corta" }, 400, JUDGING_MESSAGES.entryIdInvalid],
    [{ anotacion: "con espacios y ñ" }, 400, JUDGING_MESSAGES.entryIdInvalid],
    [{ tiempo: "1".repeat(65) }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ equipo: "x".repeat(5000) }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ intent: "otra" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ intent: "ronda" }, 409, JUDGING_MESSAGES.wrongFormat],
    [{ intent: "hoja" }, 409, JUDGING_MESSAGES.wrongFormat],
  ];
  const before = await stored();
  for (const [fields, status, message] of cases) {
    const reply = await post(c.judge, c.data, { ...base, ...fields });
    expect({ fields, status: reply.status, body: reply.body }).toEqual({
      fields,
      status,
      body: { ok: false, message },
    });
  }
  // Each field once.
  for (const repeated of [
    { tiempo: ["10", "11"] },
    { equipo: [condores, condores] },
    { intent: ["vuelta", "vuelta"] },
  ]) {
    const reply = await post(c.judge, c.data, { ...base, ...repeated });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, message: JUDGING_MESSAGES.entryMalformed });
  }
  // A body that is not a form, or none.
  for (const body of [JSON.stringify(base), undefined]) {
    const raw = await c.judge.client.request("POST", c.data, {
      headers: body ? { "Content-Type": "application/json" } : {},
      body,
    });
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.text)).toBe(KERNEL_MESSAGES.badFormBody);
  }
  expect(await stored()).toEqual(before);
  // An entry id sent again with other data is not taken.
  const id = randomUUID();
  expect((await post(c.judge, c.data, { ...base, anotacion: id })).body).toMatchObject({
    outcome: "saved",
  });
  const reused = await post(c.judge, c.data, { ...base, anotacion: id, vuelta: "2" });
  expect(reused).toMatchObject({
    status: 409,
    body: { ok: false, message: JUDGING_MESSAGES.entryIdReused },
  });
});

test("time trial without JavaScript: the page shows the category, its rule, the teams in play and one form per run; each post says what happened and a resent form is stored once", async () => {
  const c = await competition("tiempo", { tieRule: "menos-penalizaciones" });
  const condores = await team(c, "Los Cóndores");
  await team(c, "Ausentes", { compete: false });
  const page = await c.judge.client.get(c.page);
  expect(page.status).toBe(200);
  expect(page.headers.get("Cache-Control")).toBe("no-store");
  expect(page.headers.get("Content-Security-Policy")).toContain("worker-src 'self'");
  const html = words(page.text);
  expect(html).toContain("Seguidor de línea");
  expect(html).toContain("Desempate: Menos penalizaciones.");
  expect(html).toContain("Cuenta la mejor de 3 vueltas.");
  expect(html).toContain("Los Cóndores");
  expect(html).not.toContain("Ausentes");
  expect(page.text).toContain('inputMode="decimal"');
  expect(page.text).toContain(
    `href="/admin/eventos/${c.eventId}/jurado/${c.categoryId}/app.webmanifest"`,
  );
  const entryId = /name="anotacion" value="([^"]+)"/.exec(page.text)?.[1];
  expect(entryId).toMatch(/^[0-9a-f-]{36}$/);
  const form = {
    intent: "vuelta",
    anotacion: entryId!,
    equipo: condores,
    vuelta: "2",
    tiempo: "9,87",
    penalizacion: "1",
  };
  const saved = await c.judge.client.post(c.page, form);
  expect(saved.status).toBe(200);
  expect(words(saved.text)).toContain("Anotado.");
  const resent = await c.judge.client.post(c.page, form);
  expect(words(resent.text)).toContain("Ya estaba anotado.");
  const refused = await c.judge.client.post(c.page, {
    ...form,
    anotacion: randomUUID(),
    tiempo: "0",
  });
  expect(refused.status).toBe(400);
  expect(words(refused.text)).toContain(`No se anotó: ${JUDGING_MESSAGES.timeOutOfRange}`);
  const runs = await server.db
    .select()
    .from(judgingRuns)
    .where(eq(judgingRuns.categoryId, c.categoryId));
  expect(runs.map((r) => [r.attempt, r.timeMs, r.penaltyMs])).toEqual([[2, 9870, 1000]]);
  // The page lists it under the team.
  const after = words((await c.judge.client.get(c.page)).text);
  expect(after).toContain("V2: 9,870 s + 1,000 s de penalización");
  // Unknown intents are refused.
  const unknown = await c.judge.client.post(c.page, { intent: "borrar" });
  expect(unknown.status).toBe(400);
});

// ——— Bracket ———

test("bracket: without a draw the screen says so; the organiser draws it on the organisers' screen (judges may not); a bye, a match not due and rounds out of order are refused; rounds are saved, resent and in conflict", async () => {
  const c = await competition("llaves");
  const [a, b, d] = [await team(c, "Alfa"), await team(c, "Beta"), await team(c, "Delta")];
  const absent = await team(c, "Ausentes", { compete: false });
  expect(words((await c.judge.client.get(c.page)).text)).toContain(JUDGING_MESSAGES.noDraw);
  const noDraw = await post(c.judge, c.data, {
    intent: "ronda",
    partido: "r1-0",
    ronda: "1",
    ganador: a,
  });
  expect(noDraw).toMatchObject({
    status: 409,
    body: { ok: false, message: JUDGING_MESSAGES.noDraw },
  });
  // The organiser's screen says so too, with the way to the category's organisers' screen.
  const prep = words((await c.organiser.client.get(c.page)).text);
  expect(prep).toContain("Organizar resultados");
  expect(prep).not.toContain("Sortear");
  // A judge may not draw; an organiser does, on the organisers' screen (decision 060).
  const organise = c.page.replace("/jurado/", "/categorias/") + "/resultados";
  expect((await c.organiser.client.get(c.page)).text).toContain(`href="${organise}"`);
  const refusedDraw = await c.judge.client.post(organise, { intent: "sortear" });
  expect(refusedDraw.status).toBe(403);
  expect(words(refusedDraw.text)).toContain(KERNEL_MESSAGES.notAllowed);
  expect(
    await server.db.select().from(bracketDraws).where(eq(bracketDraws.categoryId, c.categoryId)),
  ).toEqual([]);
  const drawn = await c.organiser.client.post(organise, { intent: "sortear" });
  expect(drawn.status).toBe(302);
  expect(drawn.location).toContain(organise);
  const [draw] = await server.db
    .select()
    .from(bracketDraws)
    .where(eq(bracketDraws.categoryId, c.categoryId));
  expect(draw?.method).toBe("sorteo");
  // Seeded by the organiser instead, for a known bracket: Alfa 1, Beta 2, Delta 3.
  await seedBracket(server.db, await asActor(c.organiser), c.categoryId, [a, b, d]);
  const state = await board(c.judge, c.data);
  expect(state.bracket?.seeded).toEqual([a, b, d]);
  // Four slots: Alfa has a bye (r1-0), Beta meets Delta (r1-1); the final r2-0 is not due.
  const html = words((await c.judge.client.get(c.page)).text);
  expect(html).toContain("«Alfa» pasa a la ronda siguiente sin rival");
  expect(html).toContain("«Beta» contra «Delta»");
  expect(html).toContain("Gana «Beta»");
  expect(html).toContain("Gana «Delta»");

  const before = await stored();
  const cases: Array<[Record<string, string>, number, string]> = [
    [{ partido: "r1-0", ganador: a }, 409, JUDGING_MESSAGES.matchIsBye],
    [{ partido: "r2-0", ganador: a }, 409, JUDGING_MESSAGES.matchNotDue],
    [{ partido: "r1-1", ronda: "2", ganador: b }, 409, JUDGING_MESSAGES.roundNotDue],
    [{ partido: "r1-1", ganador: a }, 400, JUDGING_MESSAGES.winnerNotInMatch],
    [{ partido: "r1-1", ganador: absent }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ partido: "r9-9", ganador: b }, 404, JUDGING_MESSAGES.matchNotFound],
    [{ partido: "zz" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ partido: "r1-1", ronda: "4", ganador: b }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ partido: "r1-1", ganador: "" }, 400, JUDGING_MESSAGES.winnerMissing],
    [{ partido: "r1-1", ganador: "no-es-un-id" }, 409, JUDGING_MESSAGES.teamNotInCategory],
  ];
  for (const [fields, status, message] of cases) {
    const reply = await post(c.judge, c.data, {
      intent: "ronda",
      ronda: "1",
      anotacion: randomUUID(),
      ...fields,
    });
    expect({ fields, status: reply.status, body: reply.body }).toEqual({
      fields,
      status,
      body: { ok: false, message },
    });
  }
  expect(await stored()).toEqual(before);

  const round1 = {
    intent: "ronda",
    anotacion: randomUUID(),
    partido: "r1-1",
    ronda: "1",
    ganador: b,
  };
  expect((await post(c.judge, c.data, round1)).body).toMatchObject({
    outcome: "saved",
    message: "Anotado.",
  });
  expect((await post(c.judge, c.data, round1)).body).toMatchObject({
    outcome: "same",
    message: "Ya estaba anotado.",
  });
  const other = await post(c.judge2, c.data, { ...round1, anotacion: randomUUID(), ganador: d });
  expect(other.body).toMatchObject({
    outcome: "conflict",
    message: JUDGING_MESSAGES.outcomeConflict,
  });
  // The screen offers only the round to play next, so its rounds carry 'sinVer': an organiser's
  // round sent after a judge's (offline meanwhile) is a second entry too, not a correction.
  const organisers = await post(c.organiser, c.data, {
    ...round1,
    anotacion: randomUUID(),
    ganador: d,
    sinVer: "1",
  });
  expect(organisers.body).toMatchObject({ outcome: "conflict" });
  // Round 2 without JavaScript: the page's buttons post the winner.
  const page = await c.judge.client.get(c.page);
  const entryId = /name="anotacion" value="([^"]+)"/.exec(page.text)?.[1];
  expect(words(page.text)).toContain("Ronda 1: ganó «Beta»");
  expect(words(page.text)).toContain("Ronda 2: ¿quién ganó?");
  expect(page.text).toContain('name="sinVer" value="1"');
  const second = await c.judge.client.post(c.page, {
    intent: "ronda",
    anotacion: entryId!,
    partido: "r1-1",
    ronda: "2",
    ganador: b,
  });
  expect(second.status).toBe(200);
  expect(words(second.text)).toContain("Anotado.");
  // Beta won 2–0: the final Alfa–Beta is due now, and the semifinal is decided.
  const now = words(second.text);
  expect(now).toContain("«Alfa» contra «Beta»");
  expect(now).toContain("ganó «Beta» a «Delta»");
  const decided = await post(c.judge, c.data, {
    intent: "ronda",
    anotacion: randomUUID(),
    partido: "r1-1",
    ronda: "3",
    ganador: d,
  });
  expect(decided).toMatchObject({ status: 409, body: { message: JUDGING_MESSAGES.matchDecided } });
  // Once rounds exist the draw stays, and the organisers' screen no longer offers it.
  expect(words((await c.organiser.client.get(organise)).text)).toContain("Ya hay rondas anotadas");
  const redraw = await c.organiser.client.post(organise, { intent: "sortear" });
  expect(redraw.status).toBe(409);
  expect(words(redraw.text)).toContain(JUDGING_MESSAGES.drawLocked);
});

// ——— Score sheet ———

test("score sheet: the organiser sets the criteria on the organisers' screen; a judge sends their own sheet (saved, resent, then a different one is a conflict); out-of-range and missing points are refused; each judge sees only their own sheets", async () => {
  const c = await competition("puntaje");
  const condores = await team(c, "Los Cóndores");
  expect(words((await c.judge.client.get(c.page)).text)).toContain(JUDGING_MESSAGES.noCriteria);
  const noCriteria = await post(c.judge, c.data, { intent: "hoja", equipo: condores });
  expect(noCriteria).toMatchObject({ status: 400, body: { message: JUDGING_MESSAGES.noCriteria } });
  // Criteria, on the organisers' screen (decision 060): a judge may not set them; bad ones are
  // refused; the organiser's are kept in order.
  const organise = c.page.replace("/jurado/", "/categorias/") + "/resultados";
  const criteria = (criterio: string[], maximo: string[]) => ({
    intent: "reglas",
    desempate: "primer-criterio",
    criterio,
    maximo,
  });
  const byJudge = await c.judge.client.post(organise, criteria(["Diseño"], ["10"]));
  expect(byJudge.status).toBe(403);
  for (const [name, max] of [
    ["Diseño", "diez"],
    ["Diseño", "0"],
    ["Diseño", "1001"],
    ["x".repeat(81), "10"],
  ]) {
    const reply = await c.organiser.client.post(organise, criteria([name!], [max!]));
    expect(reply.status, name!.slice(0, 20)).toBe(400);
  }
  const saved = await c.organiser.client.post(
    organise,
    criteria(["Diseño del robot", "", "  Programación  ", "Presentación"], ["10", "", "20", "5"]),
  );
  expect(saved.status).toBe(302);
  const [category] = await server.db
    .select({ criteria: competitionCategories.criteria })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, c.categoryId));
  expect(category?.criteria).toEqual([
    { id: "c1", name: "Diseño del robot", max: 10 },
    { id: "c2", name: "Programación", max: 20 },
    { id: "c3", name: "Presentación", max: 5 },
  ]);
  const html = words((await c.judge.client.get(c.page)).text);
  expect(html).toContain("Diseño del robot (máx. 10)");
  expect(html).toContain("Programación (máx. 20)");

  const sheet = {
    intent: "hoja",
    anotacion: randomUUID(),
    equipo: condores,
    "puntos-c1": "8,5",
    "puntos-c2": "17",
    "puntos-c3": "4.25",
  };
  const before = await stored();
  const cases: Array<[Record<string, string>, number, string]> = [
    [{ "puntos-c1": "10,01" }, 400, JUDGING_MESSAGES.scoreOutOfRange],
    [{ "puntos-c3": "6" }, 400, JUDGING_MESSAGES.scoreOutOfRange],
    [{ "puntos-c2": "" }, 400, JUDGING_MESSAGES.criterionMissing],
    [{ "puntos-c2": "7,555" }, 400, JUDGING_MESSAGES.pointsMalformed],
    [{ "puntos-c2": "-1" }, 400, JUDGING_MESSAGES.pointsMalformed],
    [{ equipo: randomUUID() }, 409, JUDGING_MESSAGES.teamNotInCategory],
    [{ intent: "vuelta" }, 409, JUDGING_MESSAGES.wrongFormat],
  ];
  for (const [fields, status, message] of cases) {
    const reply = await post(c.judge, c.data, { ...sheet, anotacion: randomUUID(), ...fields });
    expect({ fields, status: reply.status, body: reply.body }).toEqual({
      fields,
      status,
      body: { ok: false, message },
    });
  }
  expect(await stored()).toEqual(before);
  expect((await post(c.judge, c.data, sheet)).body).toMatchObject({ outcome: "saved" });
  expect((await post(c.judge, c.data, sheet)).body).toMatchObject({ outcome: "same" });
  const changed = await post(c.judge, c.data, {
    ...sheet,
    anotacion: randomUUID(),
    "puntos-c1": "9",
  });
  expect(changed.body).toMatchObject({
    outcome: "conflict",
    message: JUDGING_MESSAGES.outcomeConflict,
  });
  expect((await post(c.judge2, c.data, { ...sheet, anotacion: randomUUID() })).body).toMatchObject({
    outcome: "saved",
  });
  const rows = await server.db
    .select()
    .from(scoreSheets)
    .where(eq(scoreSheets.categoryId, c.categoryId))
    .orderBy(asc(scoreSheets.enteredAt));
  expect(rows.map((r) => [r.judgeName, r.points, r.state])).toEqual([
    ["Julia Jueza", { c1: 850, c2: 1700, c3: 425 }, "standing"],
    ["Julia Jueza", { c1: 900, c2: 1700, c3: 425 }, "conflict"],
    ["Javier Juez", { c1: 850, c2: 1700, c3: 425 }, "standing"],
  ]);
  // Each judge's screen lists their own sheets only.
  expect((await board(c.judge, c.data)).sheets.map((s) => s.conflict)).toEqual([false, true]);
  expect((await board(c.judge2, c.data)).sheets).toHaveLength(1);
  expect(words((await c.judge.client.get(c.page)).text)).toContain("«Los Cóndores»: total 29,75");
  // Once sheets exist the criteria stay.
  const locked = await c.organiser.client.post(organise, criteria(["Otro"], ["10"]));
  expect(locked.status).toBe(409);
});

// ——— Final ———

test("a category marked final takes no entry: the screen says so and its forms are disabled", async () => {
  const c = await competition("tiempo");
  const condores = await team(c, "Los Cóndores");
  await markFinal(server.db, { ...admin.user, grants: [] }, c.categoryId);
  const before = await stored();
  const reply = await post(c.judge, c.data, {
    intent: "vuelta",
    anotacion: randomUUID(),
    equipo: condores,
    vuelta: "1",
    tiempo: "10",
  });
  expect(reply).toMatchObject({
    status: 409,
    body: { ok: false, message: JUDGING_MESSAGES.final },
  });
  const byOrganiser = await post(c.organiser, c.data, {
    intent: "vuelta",
    equipo: condores,
    vuelta: "1",
    tiempo: "10",
  });
  expect(byOrganiser.status).toBe(409);
  const page = await c.judge.client.get(c.page);
  expect(words(page.text)).toContain(JUDGING_MESSAGES.final);
  expect(page.text).toMatch(/<fieldset disabled="" class="judge-fieldset">/);
  expect((await board(c.judge, c.data)).category.final).toBe(true);
  expect(await stored()).toEqual(before);
});

// ——— Who may ———

test("the screen and its data are refused to visitors, plain members, door staff, a judge of another category and organisers of another event; nothing is stored", async () => {
  const c = await competition("tiempo");
  const condores = await team(c, "Los Cóndores");
  const otherCategory = await competition("tiempo");
  const member = await person("Curiosa");
  const entry = {
    intent: "vuelta",
    anotacion: randomUUID(),
    equipo: condores,
    vuelta: "1",
    tiempo: "10",
  };
  const before = await stored();
  // A visitor is sent to sign in, and comes back.
  const visitor = new BrowserClient(server.url);
  for (const path of [c.page, c.data]) {
    const page = await visitor.get(path);
    expect(page.status).toBe(302);
    expect(page.location).toContain(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect((await visitor.post(path, entry)).status).toBe(302);
  }
  const refused: Array<[Person, string]> = [
    [member, KERNEL_MESSAGES.accessDenied],
    [c.door, KERNEL_MESSAGES.notAllowed],
    [otherCategory.judge, KERNEL_MESSAGES.notAllowed],
    [otherCategory.organiser, KERNEL_MESSAGES.notAllowed],
  ];
  for (const [p, message] of refused) {
    const page = await p.client.get(c.page);
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/\/inicio$/);
    const data = await p.client.get(c.data);
    expect(data.status).toBe(302);
    for (const path of [c.page, c.data]) {
      const reply = await post(p, path, entry);
      expect(reply.status).toBe(403);
      expect(words(String(reply.body))).toContain(message);
    }
  }
  // A judge of one category opens only that one, even within the same event.
  const [sibling] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: c.eventId,
      position: 2,
      name: "Micromouse",
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format: "tiempo",
    })
    .returning({ id: competitionCategories.id });
  const siblingPage = `/admin/eventos/${c.eventId}/jurado/${sibling!.id}`;
  expect((await post(c.judge, `${siblingPage}/datos`, entry)).status).toBe(403);
  expect((await c.organiser.client.get(siblingPage)).status).toBe(200);
  expect((await admin.client.get(c.page)).status).toBe(200);
  // An entry a shared phone made under another account is never entered under this one.
  const elsewhere = await post(c.judge, c.data, { ...entry, cuenta: c.organiser.user.id });
  expect(elsewhere).toMatchObject({
    status: 409,
    body: { ok: false, message: JUDGING_MESSAGES.otherAccount },
  });
  expect(await stored()).toEqual(before);
  // Under its own account it is.
  const own = await post(c.judge, c.data, { ...entry, cuenta: c.judge.user.id });
  expect(own).toMatchObject({ status: 200, body: { ok: true, outcome: "saved" } });
});

test("unknown, malformed or mismatched ids are not found (never a 500); the manifest and the service worker are served", async () => {
  const c = await competition("tiempo");
  const other = await competition("llaves");
  const paths = [
    `/admin/eventos/${c.eventId}/jurado/${randomUUID()}`,
    `/admin/eventos/${c.eventId}/jurado/no-es-un-id`,
    // Another event's category under this event's address.
    `/admin/eventos/${c.eventId}/jurado/${other.categoryId}`,
    `/admin/eventos/no-es-un-id/jurado/${c.categoryId}`,
  ];
  for (const path of paths) {
    for (const suffix of ["", "/datos"]) {
      const reply = await admin.client.get(path + suffix);
      expect({ path: path + suffix, status: reply.status }).toEqual({
        path: path + suffix,
        status: 404,
      });
    }
    const posted = await admin.client.post(`${path}/datos`, { intent: "vuelta" });
    expect(posted.status).toBe(404);
  }
  // An organiser of the event, for a category of another event: not found, not someone else's data.
  const mismatched = await c.organiser.client.get(
    `/admin/eventos/${c.eventId}/jurado/${other.categoryId}`,
  );
  expect(mismatched.status).toBe(404);
  // A judge of a category, under another event's address: refused.
  const wrongEvent = await c.judge.client.get(
    `/admin/eventos/${other.eventId}/jurado/${c.categoryId}`,
  );
  expect(wrongEvent.status).toBe(302);

  const manifest = await c.judge.client.get(`${c.page}/app.webmanifest`);
  expect(manifest.status).toBe(200);
  expect(manifest.headers.get("Content-Type")).toContain("application/manifest+json");
  expect(JSON.parse(manifest.text)).toMatchObject({
    start_url: c.page,
    scope: c.page,
    name: "Jurado: Seguidor de línea — Ayllu",
  });
  for (const bad of [
    `/admin/eventos/${c.eventId}/jurado/${other.categoryId}/app.webmanifest`,
    `/admin/eventos/x/jurado/y/app.webmanifest`,
  ])
    expect((await c.judge.client.get(bad)).status).toBe(404);
  const worker = await c.judge.client.get("/jurado-sw.js");
  expect(worker.status).toBe(200);
  expect(worker.headers.get("Content-Type")).toContain("text/javascript");
  expect(worker.text).toContain("ayllu-jurado-v1");
});

// ——— Where judges and organisers find it ———

test("judges find their screen in the menu, on their profile and on the event's page; organisers on the categories page", async () => {
  const c = await competition("tiempo");
  const profile = await c.judge.client.get("/profile");
  expect(profile.text).toContain(`href="${c.page}"`);
  expect(words(profile.text)).toContain("Jurado (Seguidor de línea)");
  const event = await c.judge.client.get(`/detalles/${c.eventId}`);
  expect(event.text).toContain(`href="${c.page}"`);
  expect(words(event.text)).toContain("Anotar resultados: Seguidor de línea");
  // The user menu: one category, straight to it.
  expect((await c.judge.client.get("/inicio")).text).toContain(`href="${c.page}"`);
  const categories = await c.organiser.client.get(`/admin/eventos/${c.eventId}/categorias`);
  expect(categories.text).toContain(`href="${c.page}"`);
  expect(categories.text).toContain('aria-label="Anotar resultados de Seguidor de línea"');
  // Someone else sees none of it.
  const stranger = await person("Nadie");
  expect((await stranger.client.get(`/detalles/${c.eventId}`)).text).not.toContain("/jurado/");
});
