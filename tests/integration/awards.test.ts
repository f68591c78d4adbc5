// Issue 39, points 1, 2 and 4 (decision 060): the organisers' screen of a category — how it is
// judged, the bracket's draw or seeding, conflicts, final and reopen — refused to everyone else;
// and once final, certificates by place for every member of a ranked team ('1er lugar' …
// 'Participación') that download, verify like the others (minors named as the results name
// them), stop proving anything while reopened, and stay on the members' profiles. Through the
// pages, on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL.
import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditLog,
  awardCertificates,
  bracketDraws,
  bracketRounds,
  competitionCategories,
  competitionTeams,
  schools,
  teamMembers,
  users,
  type User,
} from "~/db/schema.server";
import { formatCertificateCode } from "~/attendance/certificate.server";
import { enterRound, enterRun, enterScoreSheet } from "~/competitions/judging/entries.server";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { markFinal, reopenCategory } from "~/competitions/judging/organise.server";
import { leaveTeam } from "~/competitions/team-commands.server";
import { TEAM_MESSAGES } from "~/competitions/teams";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { grantRole, loadGrants } from "~/members/roles.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { makeCompete } from "../helpers/competitions";
import { shownFinal } from "../helpers/shown";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
failOnConsoleError();

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
}, 120_000);
afterAll(() => server?.close());

const text = (html: string) =>
  html.replaceAll("<!-- -->", "").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");

/** The text of the page's alerts as rendered (not the data its scripts carry). */
const alerts = (html: string) =>
  [
    ...html
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .matchAll(/<p[^>]*role="alert"[^>]*>([\s\S]*?)<\/p>/g),
  ]
    .map((m) => text(m[1]!).replace(/<[^>]*>/g, ""))
    .join("\n");

type Person = Awaited<ReturnType<typeof createMember>>;

/** A PDF's text, as a reader would copy it. */
async function pdfText(client: BrowserClient, path: string) {
  const response = await fetch(new URL(path, server.url), {
    headers: { Cookie: client.cookieHeader() },
    redirect: "manual",
  });
  expect(response.status).toBe(200);
  const pdf = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

async function person(name: string): Promise<Person> {
  const p = await createMember(server, `${randomUUID()}@example.com`, name);
  await server.db.update(users).set({ nombreCompleto: name }).where(eq(users.id, p.user.id));
  return { ...p, user: { ...p.user, nombreCompleto: name } };
}

const withGrants = async (p: Person) => ({
  ...p.user,
  grants: await loadGrants(server.db, p.user.id),
});

/**
 * A competition with one category of `format` and its people: an organiser, a judge of the
 * category, door staff, a plain member, and a second event's organiser.
 */
async function competition(
  format: "tiempo" | "llaves" | "puntaje",
  level = "secundaria",
  name = "Seguidor de línea",
) {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Clash Robotics ${randomUUID().slice(0, 4)}`,
  });
  const other = await createTestEvent(server.db, admin.user, { nombreEvento: "Otro evento" });
  const [category] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name,
      level,
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      format,
      attempts: 1,
    })
    .returning({ id: competitionCategories.id });
  const [elsewhere] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: other.id,
      position: 1,
      name: "Minisumo",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      format,
    })
    .returning({ id: competitionCategories.id });
  const organiser = await person("Olga Organiza");
  const judge = await person("Julia Jurado");
  const door = await person("Pedro Puerta");
  const member = await person("Mía Miembro");
  const otherOrganiser = await person("Otto Otro");
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, {
    userId: judge.user.id,
    kind: "judge",
    eventId: event.id,
    categoryId: category!.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  await grantRole(server.db, admin.user, {
    userId: otherOrganiser.user.id,
    kind: "organiser",
    eventId: other.id,
  });
  const page = `/admin/eventos/${event.id}/categorias/${category!.id}/resultados`;
  return {
    eventId: event.id,
    otherEventId: other.id,
    categoryId: category!.id,
    elsewhereId: elsewhere!.id,
    page,
    organiser,
    judge,
    door,
    member,
    otherOrganiser,
  };
}

type Competition = Awaited<ReturnType<typeof competition>>;

/** Approved teams that compete (checked in, robot passed), each with these members. */
async function teams(c: Competition, names: Array<[team: string, members: string[]]>) {
  const [school] = await server.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const out: Array<{ id: string; members: Person[] }> = [];
  for (const [name, people] of names) {
    const [row] = await server.db
      .insert(competitionTeams)
      .values({
        eventId: c.eventId,
        categoryId: c.categoryId,
        name,
        schoolId: school!.id,
        city: "La Paz",
        robotName: "Rayo",
        status: "approved",
      })
      .returning({ id: competitionTeams.id });
    const members: Person[] = [];
    for (const who of people) {
      const p = await person(who);
      await server.db
        .insert(teamMembers)
        .values({ teamId: row!.id, userId: p.user.id, categoryId: c.categoryId });
      members.push(p);
    }
    out.push({ id: row!.id, members });
  }
  await makeCompete(
    server.db,
    out.map((t) => t.id),
  );
  return out;
}

async function categoryRow(id: string) {
  const [row] = await server.db
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.id, id));
  return row!;
}

async function state(c: Competition) {
  const category = await categoryRow(c.categoryId);
  return {
    category,
    draws: await server.db
      .select()
      .from(bracketDraws)
      .where(eq(bracketDraws.categoryId, c.categoryId)),
    rounds: await server.db
      .select()
      .from(bracketRounds)
      .where(eq(bracketRounds.categoryId, c.categoryId)),
    audit: (await server.db.select({ n: count() }).from(auditLog))[0]!.n,
  };
}

test("organisers set how a time trial is judged, mark it final and reopen it on their screen; judges, door staff, members, visitors and other events' organisers are refused, nothing changed", async () => {
  const c = await competition("tiempo");
  await teams(c, [["Los Cóndores", ["Ana Quispe Mamani"]]]);

  const page = await c.organiser.client.get(c.page);
  expect(page.status).toBe(200);
  expect(text(page.text)).toContain("Resultados: Seguidor de línea");
  expect(text(page.text)).toContain("Los Cóndores");
  expect(text(page.text)).toContain("Marcar resultados como finales");

  const saved = await c.organiser.client.post(c.page, {
    intent: "reglas",
    formato: "tiempo",
    desempate: "compartido",
    vueltas: "2",
  });
  expect(saved.status).toBe(302);
  expect(saved.location).toMatch(/\/resultados#como-se-juzga$/);
  expect(await categoryRow(c.categoryId)).toMatchObject({ tieRule: "compartido", attempts: 2 });
  const after = await c.organiser.client.get(c.page);
  expect(text(after.text)).toContain("Forma de juzgar guardada.");

  // Everyone else: the page sends them away, a post is refused; nothing changes.
  const before = await state(c);
  const visitor = new BrowserClient(server.url);
  for (const client of [
    c.judge.client,
    c.door.client,
    c.member.client,
    c.otherOrganiser.client,
    visitor,
  ]) {
    const get = await client.get(c.page);
    expect(get.status).not.toBe(200);
    for (const intent of ["reglas", "final", "sortear"]) {
      const post = await client.post(c.page, {
        intent,
        formato: "tiempo",
        desempate: "segundo-tiempo",
        vueltas: "3",
      });
      expect(post.status).toBeGreaterThanOrEqual(300);
      expect(post.status).toBeLessThan(500);
      expect(post.location ?? "").not.toMatch(/\/resultados/);
    }
  }
  // Another event's organiser, with this category under their own event's address: not found.
  const crossed = `/admin/eventos/${c.otherEventId}/categorias/${c.categoryId}/resultados`;
  expect((await c.otherOrganiser.client.get(crossed)).status).toBe(404);
  const crossedPost = await c.otherOrganiser.client.post(crossed, {
    intent: "final",
  });
  expect(crossedPost.status).toBe(404);
  expect(text(crossedPost.text)).toContain(JUDGING_MESSAGES.categoryNotFound);
  expect(await state(c)).toEqual(before);

  // Bad input: a Spanish message, a 4xx, nothing changed.
  const bad: Array<[Record<string, string | string[]>, number, string]> = [
    [
      { intent: "reglas", formato: "tiempo", desempate: "a-ojo", vueltas: "2" },
      400,
      JUDGING_MESSAGES.tieRuleInvalid,
    ],
    [
      { intent: "reglas", formato: "tiempo", desempate: "compartido", vueltas: "11" },
      400,
      JUDGING_MESSAGES.attemptsInvalid,
    ],
    [
      { intent: "reglas", formato: "tiempo", desempate: "compartido", vueltas: "dos" },
      400,
      JUDGING_MESSAGES.attemptsInvalid,
    ],
    [
      {
        intent: "reglas",
        formato: "tiempo",
        desempate: ["compartido", "segundo-tiempo"],
        vueltas: "2",
      },
      400,
      JUDGING_MESSAGES.entryMalformed,
    ],
    [{ intent: "borrar-todo" }, 400, JUDGING_MESSAGES.entryMalformed],
    [{ intent: ["final", "reabrir"] }, 400, JUDGING_MESSAGES.entryMalformed],
    [{}, 400, JUDGING_MESSAGES.entryMalformed],
    [{ intent: "sortear" }, 409, JUDGING_MESSAGES.wrongFormat],
    [
      { intent: "decidir", tipo: "run", conflicto: randomUUID(), decision: "aceptar" },
      404,
      JUDGING_MESSAGES.conflictNotFound,
    ],
    [
      { intent: "decidir", tipo: "run", conflicto: "1 or 1=1", decision: "aceptar" },
      404,
      JUDGING_MESSAGES.conflictNotFound,
    ],
    [
      { intent: "decidir", tipo: "run", conflicto: randomUUID(), decision: "tal-vez" },
      400,
      JUDGING_MESSAGES.decision,
    ],
    [{ intent: "reabrir" }, 400, JUDGING_MESSAGES.finalSeenMissing],
    [{ intent: "reabrir", visto: new Date().toISOString() }, 409, JUDGING_MESSAGES.notFinal],
  ];
  for (const [fields, status, message] of bad) {
    const reply = await c.organiser.client.post(c.page, fields);
    expect([reply.status, alerts(reply.text).includes(message)], JSON.stringify(fields)).toEqual([
      status,
      true,
    ]);
  }
  const json = await c.organiser.client.request("POST", c.page, {
    body: JSON.stringify({ intent: "final" }),
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  for (const path of [
    `/admin/eventos/${c.eventId}/categorias/no-es-un-id/resultados`,
    `/admin/eventos/${c.eventId}/categorias/${randomUUID()}/resultados`,
    `/admin/eventos/${c.eventId}/categorias/${c.elsewhereId}/resultados`,
  ]) {
    expect((await c.organiser.client.get(path)).status, path).toBe(404);
    const post = await c.organiser.client.post(path, { intent: "final" });
    expect(post.status, path).toBe(404);
    expect(text(post.text)).toContain(JUDGING_MESSAGES.categoryNotFound);
  }
  expect(await state(c)).toEqual(before);

  // Final: nothing can change until reopened; both are in the audit log.
  expect((await c.organiser.client.post(c.page, { intent: "final" })).location).toMatch(/#final$/);
  expect((await categoryRow(c.categoryId)).finalByName).toBe("Olga Organiza");
  const finalPage = text((await c.organiser.client.get(c.page)).text);
  expect(finalPage).toContain("Reabrir resultados");
  expect(finalPage).toContain("Reabre los resultados para cambiar cómo se juzga.");
  const locked = await c.organiser.client.post(c.page, {
    intent: "reglas",
    formato: "tiempo",
    desempate: "segundo-tiempo",
    vueltas: "3",
  });
  expect(locked.status).toBe(409);
  expect(alerts(locked.text)).toContain(JUDGING_MESSAGES.final);
  const again = await c.organiser.client.post(c.page, { intent: "final" });
  expect([again.status, alerts(again.text).includes(JUDGING_MESSAGES.alreadyFinal)]).toEqual([
    409,
    true,
  ]);
  expect(
    (
      await c.organiser.client.post(c.page, {
        intent: "reabrir",
        visto: await shownFinal(server.db, c.categoryId),
      })
    ).status,
  ).toBe(302);
  expect((await categoryRow(c.categoryId)).finalAt).toBeNull();
  const actions = await server.db
    .select({ action: auditLog.action, summary: auditLog.summary })
    .from(auditLog)
    .where(eq(auditLog.itemId, c.categoryId));
  expect(actions.map((a) => a.action).sort()).toEqual([
    "competition.category.final",
    "competition.category.reopen",
    "competition.judging.rules",
  ]);
});

test("a score sheet's criteria are typed on the screen, blank rows skipped; wrong ones are refused in Spanish", async () => {
  const c = await competition("puntaje", "primaria", "Desafío escolar");
  const form = (criterio: string[], maximo: string[]) => ({
    intent: "reglas",
    formato: "puntaje",
    desempate: "primer-criterio",
    criterio,
    maximo,
  });
  const ok = await c.organiser.client.post(
    c.page,
    form(["Diseño", "", " Programación  del robot "], ["10", "", "20"]),
  );
  expect(ok.status).toBe(302);
  expect((await categoryRow(c.categoryId)).criteria).toEqual([
    { id: "c1", name: "Diseño", max: 10 },
    { id: "c2", name: "Programación del robot", max: 20 },
  ]);
  const before = await state(c);
  for (const [criterio, maximo] of [
    [["Diseño"], ["0"]],
    [["Diseño"], ["diez"]],
    [["x".repeat(81)], ["10"]],
    [["Diseño", "Otro"], ["10"]],
    [[""], [""]],
    [Array.from({ length: 21 }, (_, i) => `C${i}`), Array.from({ length: 21 }, () => "5")],
  ]) {
    const reply = await c.organiser.client.post(c.page, form(criterio!, maximo!));
    expect(reply.status).toBe(400);
    expect(alerts(reply.text)).toContain(JUDGING_MESSAGES.criteriaInvalid);
  }
  // A control character is refused where the form is read (decision 063).
  const nul = await c.organiser.client.post(c.page, form(["Diseño\u0000"], ["10"]));
  expect([nul.status, nul.text.includes(KERNEL_MESSAGES.controlCharacter)]).toEqual([400, true]);
  expect(await state(c)).toEqual(before);
  const page = text((await c.organiser.client.get(c.page)).text);
  expect(page).toContain('value="Programación del robot"');

  // Once a sheet is in, the criteria's fields are closed, and the tie rule can still change.
  const [t] = await teams(c, [["Chaskis", ["Sofía Chaski"]]]);
  await enterScoreSheet(server.db, await withGrants(c.judge), c.categoryId, {
    teamId: t!.id,
    points: { c1: 800, c2: 1500 },
  });
  const closed = text((await c.organiser.client.get(c.page)).text);
  expect(closed).toContain("Ya hay hojas de puntaje anotadas");
  const rule = await c.organiser.client.post(c.page, { intent: "reglas", desempate: "compartido" });
  expect(rule.status).toBe(302);
  expect(await categoryRow(c.categoryId)).toMatchObject({
    tieRule: "compartido",
    criteria: [
      { id: "c1", name: "Diseño", max: 10 },
      { id: "c2", name: "Programación del robot", max: 20 },
    ],
  });
});

test("a bracket is drawn and seeded on the screen; entries in conflict are decided there; once rounds exist the draw stays", async () => {
  const c = await competition("llaves", "universidad", "Robot Sumo");
  const [a, b, d] = await teams(c, [
    ["Toro", ["Tomás Toro"]],
    ["Cóndor", ["Carla Cóndor"]],
    ["Puma", ["Pablo Puma"]],
  ]);
  expect(text((await c.organiser.client.get(c.page)).text)).toContain("Sortear llaves");
  expect((await c.organiser.client.post(c.page, { intent: "sortear" })).location).toMatch(
    /#llaves$/,
  );
  const [drawn] = (await state(c)).draws;
  expect(drawn).toMatchObject({ method: "sorteo", madeByName: "Olga Organiza" });
  expect(text((await c.organiser.client.get(c.page)).text)).toContain(
    `con el número ${drawn!.seed}`,
  );

  // A team that comes through the door after the draw: the seeding lists it, after the drawn.
  const [e] = await teams(c, [["Illimani", ["Iris Illimani"]]]);
  const listed = (await c.organiser.client.get(c.page)).text;
  const order = [a!.id, b!.id, d!.id, e!.id].sort(
    (x, y) => listed.indexOf(`posicion-${x}`) - listed.indexOf(`posicion-${y}`),
  );
  expect(order.at(-1)).toBe(e!.id);
  expect(order.slice(0, 3)).toEqual(drawn!.teamIds);

  // Seeding: each team's position, each once.
  const seedFields = (positions: string[]) => ({
    intent: "sembrar",
    equipo: [a!.id, b!.id, d!.id, e!.id],
    posicion: positions,
  });
  for (const wrong of [
    ["1", "1", "2", "3"],
    ["1", "2", "3"],
    ["0", "1", "2", "3"],
    ["1", "2", "3", "x"],
  ]) {
    const reply = await c.organiser.client.post(c.page, seedFields(wrong));
    expect(reply.status).toBe(400);
    expect(alerts(reply.text)).toContain(JUDGING_MESSAGES.seedsNotTeams);
  }
  const foreign = await c.organiser.client.post(c.page, {
    intent: "sembrar",
    equipo: [a!.id, b!.id, d!.id, randomUUID()],
    posicion: ["1", "2", "3", "4"],
  });
  expect(foreign.status).toBe(400);
  expect((await state(c)).draws[0]!.method).toBe("sorteo");
  expect((await c.organiser.client.post(c.page, seedFields(["2", "3", "1", "4"]))).status).toBe(
    302,
  );
  const [seeded] = (await state(c)).draws;
  expect(seeded).toMatchObject({ method: "siembra", teamIds: [d!.id, a!.id, b!.id, e!.id] });

  // Seeds 1 and 4 (Puma, Illimani) play 'r1-0'; 2 and 3 (Toro, Cóndor) the semifinal 'r1-1'.
  const judge = await withGrants(c.judge);
  const page1 = text((await c.organiser.client.get(c.page)).text);
  expect(page1).toContain("No hay anotaciones por decidir.");
  await enterRound(server.db, judge, c.categoryId, {
    matchId: "r1-1",
    round: 1,
    winnerTeamId: a!.id,
  });
  await enterRound(server.db, judge, c.categoryId, {
    matchId: "r1-1",
    round: 1,
    winnerTeamId: b!.id,
  });
  const withConflict = text((await c.organiser.client.get(c.page)).text);
  expect(withConflict).toContain("Anotaciones en conflicto (1)");
  expect(withConflict).toContain("Ronda 1 de un partido de semifinales («Toro» contra «Cóndor»)");
  expect(withConflict).toContain("ganó «Toro»");
  expect(withConflict).toContain("ganó «Cóndor»");
  // Nothing is final while an entry waits for a decision.
  const early = await c.organiser.client.post(c.page, { intent: "final" });
  expect([early.status, alerts(early.text)]).toEqual([409, JUDGING_MESSAGES.finalWithConflicts]);
  const [conflict] = (await state(c)).rounds.filter((r) => r.state === "conflict");
  const decided = await c.organiser.client.post(c.page, {
    intent: "decidir",
    tipo: "round",
    conflicto: conflict!.id,
    decision: "aceptar",
  });
  expect(decided.location).toMatch(/#conflictos$/);
  const rounds = (await state(c)).rounds;
  expect(rounds.find((r) => r.id === conflict!.id)!.state).toBe("standing");
  expect(rounds.find((r) => r.winnerTeamId === a!.id)!.state).toBe("replaced");
  expect(text((await c.organiser.client.get(c.page)).text)).toContain(
    "Anotación aceptada: ahora cuenta la segunda.",
  );
  // Nor while the bracket has no champion.
  const unfinished = await c.organiser.client.post(c.page, { intent: "final" });
  expect([unfinished.status, alerts(unfinished.text)]).toEqual([
    409,
    JUDGING_MESSAGES.finalBracketUnfinished,
  ]);
  expect((await categoryRow(c.categoryId)).finalAt).toBeNull();
  // Decided once: deciding it again finds nothing.
  const twice = await c.organiser.client.post(c.page, {
    intent: "decidir",
    tipo: "round",
    conflicto: conflict!.id,
    decision: "mantener",
  });
  expect(twice.status).toBe(404);
  // Shown at the top: the conflict's form is gone from the page.
  expect(alerts(twice.text)).toBe(JUDGING_MESSAGES.conflictNotFound);

  // Rounds exist: no new draw, no new seeding, and the screen no longer offers them.
  for (const fields of [{ intent: "sortear" }, seedFields(["1", "2", "3", "4"])]) {
    const reply = await c.organiser.client.post(c.page, fields);
    expect(reply.status).toBe(409);
    expect(alerts(reply.text)).toContain(JUDGING_MESSAGES.drawLocked);
  }
  const lockedPage = text((await c.organiser.client.get(c.page)).text);
  expect(lockedPage).toContain("Ya hay rondas anotadas");
  expect(lockedPage).not.toContain("Sortear de nuevo");
  // A judge's rights never reach the organisers' actions.
  expect((await c.judge.client.post(c.page, { intent: "sortear" })).status).toBe(403);
});

test("once final, every member of a ranked team has a certificate by place that downloads and verifies; reopened it proves nothing; it stays on the profile; minors are named as on the results", async () => {
  const c = await competition("tiempo", "secundaria");
  const [first, second, third, fourth, none] = await teams(c, [
    ["Los Cóndores", ["Ana Quispe Mamani", "Bruno Flores Vargas"]],
    ["Los Pumas", ["Carla Choque Rojas"]],
    ["Las Llamas", ["Diego Mamani Luna"]],
    ["Los Zorros", ["Elena Condori Paz"]],
    ["Los Búhos", ["Fabio Ticona Cruz"]],
  ]);
  const judge = await withGrants(c.judge);
  const organiser = await withGrants(c.organiser);
  for (const [team, ms] of [
    [first, 10_000],
    [second, 11_000],
    [third, 12_000],
    [fourth, 13_000],
  ] as const)
    await enterRun(server.db, judge, c.categoryId, { teamId: team!.id, attempt: 1, timeMs: ms });
  const ana = first!.members[0]!;
  const own = `/detalles/${c.eventId}/categorias/${c.categoryId}/certificado.pdf`;
  const admin2 = (p: Person) =>
    `/admin/eventos/${c.eventId}/categorias/${c.categoryId}/certificados/${p.user.id}/certificado.pdf`;

  // Before the final: no certificates, and no codes made.
  const early = await ana.client.get(own);
  expect([early.status, early.text.trim()]).toEqual([403, JUDGING_MESSAGES.awardNotFinal]);
  expect(
    await server.db
      .select()
      .from(awardCertificates)
      .where(eq(awardCertificates.categoryId, c.categoryId)),
  ).toEqual([]);
  expect(text((await ana.client.get("/profile")).text)).toContain("Mis resultados en competencias");

  // Someone with no team in it hears that first, not that it is not final yet.
  const stranger = await c.member.client.get(own);
  expect([stranger.status, stranger.text.trim()]).toEqual([
    403,
    JUDGING_MESSAGES.awardNotCompetitor,
  ]);

  await markFinal(server.db, organiser, c.categoryId);
  // The members a certificate names are those of the final: nobody joins or leaves meanwhile.
  const bruno = first!.members[1]!;
  expect(
    await leaveTeam(server.db, bruno.user, first!.id, new Date()).catch((e: Error) => e.message),
  ).toBe(TEAM_MESSAGES.closed);
  const screen = text((await c.organiser.client.get(c.page)).text);
  expect(screen).toContain("Los Cóndores: 1er lugar");
  expect(screen).toContain("Los Pumas: 2do lugar");
  expect(screen).toContain("Las Llamas: 3er lugar");
  expect(screen).toContain("Los Zorros: Participación");
  expect(screen).toContain("Los Búhos: Participación");
  const codes = await server.db
    .select()
    .from(awardCertificates)
    .where(eq(awardCertificates.categoryId, c.categoryId));
  expect(codes).toHaveLength(6);
  const codeOf = (p: Person) =>
    formatCertificateCode(codes.find((r) => r.userId === p.user.id)!.code);

  // The member's own download, and the profile's link to it.
  const pdf = await ana.client.get(own);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
  expect(pdf.headers.get("Content-Disposition")).toContain(codeOf(ana));
  const printed = await pdfText(ana.client, own);
  // The heading is letter-spaced: read without its spaces.
  expect(printed.replace(/ /g, "")).toContain("CERTIFICADO:1ERLUGAR");
  expect(printed).toContain("Ana Quispe Mamani");
  expect(printed).toContain(
    "obtuvo el 1er lugar en la categoría «Seguidor de línea», con el equipo «Los Cóndores», de",
  );
  expect(printed).toContain(codeOf(ana));
  expect(
    (await pdfText(c.organiser.client, admin2(fourth!.members[0]!))).replace(/ /g, ""),
  ).toContain("CERTIFICADODEPARTICIPACIÓN");
  const profile = text((await ana.client.get("/profile")).text);
  expect(profile).toContain("Descargar certificado: 1er lugar");
  expect(profile).toContain("Ana Q., Bruno F.");
  expect(profile).toContain(own);

  // The public check, as the QR code reaches it: the place, the team, the category; a minor as
  // the results name them.
  const visitor = new BrowserClient(server.url);
  const check = text((await visitor.get(`/certificados/${codeOf(ana)}`)).text);
  expect(check).toContain("Certificado: 1er lugar");
  expect(check).toContain(
    "obtuvo el 1er lugar en la categoría «Seguidor de línea», con el equipo «Los Cóndores», de",
  );
  expect(check).toContain("Ana Q.");
  expect(check).not.toContain("Quispe");
  // The team's page says its place, to anyone.
  expect(text((await visitor.get(`/equipos/${first!.id}`)).text)).toContain(
    "Resultado final: 1.º puesto",
  );
  const fourthCheck = text(
    (await visitor.get(`/certificados/${codeOf(fourth!.members[0]!)}`)).text,
  );
  expect(fourthCheck).toContain("Certificado de participación");
  expect(fourthCheck).toContain("participó en la categoría");
  expect(text((await visitor.get(`/certificados/${codeOf(none!.members[0]!)}`)).text)).toContain(
    "Certificado de participación",
  );
  // Typed in small letters without dashes: the one address of its page.
  const typed = await visitor.get(
    `/certificados/${codeOf(second!.members[0]!).replaceAll("-", "").toLowerCase()}`,
  );
  expect(typed.status).toBe(301);

  // Someone else's: refused to members and judges, allowed to organisers; a wrong category or
  // event is not found; a member with no team in the category has none.
  expect((await c.member.client.get(admin2(ana))).status).not.toBe(200);
  expect((await c.judge.client.get(admin2(ana))).status).not.toBe(200);
  expect((await c.organiser.client.get(admin2(ana))).status).toBe(200);
  const nobody = await c.organiser.client.get(admin2(c.member));
  expect([nobody.status, nobody.text.trim()]).toEqual([404, JUDGING_MESSAGES.awardNobody]);
  const mine = await c.member.client.get(own);
  expect([mine.status, mine.text.trim()]).toEqual([403, JUDGING_MESSAGES.awardNotCompetitor]);
  for (const path of [
    `/detalles/${c.otherEventId}/categorias/${c.categoryId}/certificado.pdf`,
    `/detalles/${c.eventId}/categorias/${c.elsewhereId}/certificado.pdf`,
    `/detalles/${c.eventId}/categorias/no-es-un-id/certificado.pdf`,
  ])
    expect((await ana.client.get(path)).status, path).toBe(404);
  // Without a session: to the sign-in, and back.
  const anonymous = await visitor.get(own);
  expect(anonymous.status).toBe(302);
  expect(anonymous.location).toContain(`/login?redirectTo=${encodeURIComponent(own)}`);

  // Reopened: the codes stay but prove nothing; a correction changes the places; final again,
  // the same code states the new place.
  await reopenCategory(server.db, organiser, c.categoryId);
  expect((await visitor.get(`/certificados/${codeOf(ana)}`)).status).toBe(404);
  expect((await ana.client.get(own)).status).toBe(403);
  expect(text((await ana.client.get("/profile")).text)).not.toContain("Descargar certificado");
  await enterRun(server.db, organiser, c.categoryId, {
    teamId: second!.id,
    attempt: 1,
    timeMs: 9_000,
  });
  await markFinal(server.db, organiser, c.categoryId);
  const now2 = text((await visitor.get(`/certificados/${codeOf(ana)}`)).text);
  expect(now2).toContain("Certificado: 2do lugar");
  expect(
    await server.db
      .select({ n: count() })
      .from(awardCertificates)
      .where(eq(awardCertificates.categoryId, c.categoryId)),
  ).toEqual([{ n: 6 }]);

  // Not minors: the full name.
  await server.db
    .update(competitionCategories)
    .set({ level: "universidad" })
    .where(eq(competitionCategories.id, c.categoryId));
  expect(text((await visitor.get(`/certificados/${codeOf(ana)}`)).text)).toContain(
    "Ana Quispe Mamani",
  );
  // …unless the birth date says a minor on the event's day.
  await server.db
    .update(users)
    .set({ fechaNacimiento: "2015-06-01" })
    .where(eq(users.id, ana.user.id));
  // (read signed in: a change made straight in the database does not reach the visitors' cache)
  const young = text((await c.member.client.get(`/certificados/${codeOf(ana)}`)).text);
  expect(young).toContain("Ana Q.");
  expect(young).not.toContain("Quispe");

  // The data download lists the certificate with its code; deleting the account takes it.
  const data = await exportMemberData(server.db, ana.user);
  expect(data.certificadosDeCompetencia).toEqual([
    {
      evento: expect.stringContaining("Clash Robotics"),
      categoria: "Seguidor de línea",
      certificado: "2do lugar",
      codigo: codeOf(ana),
    },
  ]);
  await deleteAccount(server.db, ana.user);
  const left = await server.db
    .select({ userId: awardCertificates.userId })
    .from(awardCertificates)
    .where(
      and(
        eq(awardCertificates.categoryId, c.categoryId),
        eq(awardCertificates.userId, ana.user.id),
      ),
    );
  expect(left).toEqual([]);
  expect((await visitor.get(`/certificados/${codeOf(ana)}`)).status).toBe(404);
  expect(text((await visitor.get(`/certificados/${codeOf(first!.members[1]!)}`)).text)).toContain(
    "Certificado: 2do lugar",
  );
});
