// Issue 39, step 2 (decision 057): judges scoped to one category enter results, stored as typed;
// rankings are recomputed from the rows through the pure functions of step 1. A resend is
// idempotent, a different second entry is a conflict the organisers decide, a correction is
// audited, a final category takes nothing until reopened, and everyone the rules refuse is refused
// in Spanish with nothing changed. Runs on the embedded database and, with TEST_DATABASE_URL, on
// PostgreSQL.
import { randomUUID } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditLog,
  bracketDraws,
  bracketRounds,
  competitionCategories,
  competitionTeams,
  judgingRuns,
  roleGrants,
  schools,
  scoreSheets,
  teamMembers,
  users,
  type User,
} from "~/db/schema.server";
import { createEvent } from "~/events/event-commands.server";
import { EventSchema } from "~/events/schemas";
import { drawOrder } from "~/competitions/judging/bracket";
import { enterRound, enterRun, enterScoreSheet } from "~/competitions/judging/entries.server";
import {
  drawBracket,
  listConflicts,
  markFinal,
  reopenCategory,
  resolveConflict,
  seedBracket,
  setJudgingRules,
} from "~/competitions/judging/organise.server";
import { categoryResults } from "~/competitions/judging/results.server";
import { teamsInPlay } from "~/competitions/judging/eligible.server";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { NotAllowedError, type Grant } from "~/kernel/permissions";
import { findMemberByEmail, grantRole, loadGrants, revokeRole } from "~/members/roles.server";
import { updateCategory } from "~/competitions/categories.server";
import { CATEGORY_MESSAGES } from "~/competitions/categories";
import { VALID_EVENT } from "../helpers/events";
import { makeCompete } from "../helpers/competitions";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

let database: TestDatabase;
type Person = User & { grants: Grant[] };
let admin: Person;
let organiser: Person;
let organiserElsewhere: Person;
let eventId: string;

async function person(name = `Persona ${randomUUID().slice(0, 4)}`, isAdmin = false) {
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://jurado.invalid",
      subject: randomUUID(),
      email: `j-${randomUUID()}@example.com`,
      emailVerified: true,
      nombreCompleto: name,
      isAdmin,
    })
    .returning();
  return { ...user!, grants: await loadGrants(database.db, user!.id) };
}

/** The person as their next request sees them: their grants read again. */
async function fresh(p: Person): Promise<Person> {
  return { ...p, grants: await loadGrants(database.db, p.id) };
}

async function newEvent(name: string) {
  return createEvent(
    database.db,
    admin,
    EventSchema.parse({ ...VALID_EVENT, nombreEvento: name, enlacesVirtuales: [] }),
    "America/La_Paz",
  );
}

async function category(
  format: "tiempo" | "llaves" | "puntaje",
  extra: Partial<typeof competitionCategories.$inferInsert> = {},
  inEvent = eventId,
) {
  const [row] = await database.db
    .insert(competitionCategories)
    .values({
      eventId: inEvent,
      position: 1,
      name: `Categoría ${randomUUID().slice(0, 6)}`,
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2030-11-30T22:00:00Z"),
      format,
      ...extra,
    })
    .returning();
  return row!;
}

/** A team of the category, with members whose full names the public must never read. */
async function team(
  categoryId: string,
  status: "pending" | "approved" | "rejected" | "withdrawn" = "approved",
  name = `Equipo ${randomUUID().slice(0, 6)}`,
) {
  const [school] = await database.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const [cat] = await database.db
    .select({ eventId: competitionCategories.eventId })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  const [row] = await database.db
    .insert(competitionTeams)
    .values({
      eventId: cat!.eventId,
      categoryId,
      name,
      schoolId: school!.id,
      city: "La Paz",
      robotName: "Rayo",
      status,
    })
    .returning({ id: competitionTeams.id });
  // Approved teams compete here: checked in at the door, their robot passed (decision 055).
  if (status === "approved") await makeCompete(database.db, [row!.id]);
  return row!.id;
}

async function judgeOf(categoryId: string, name?: string): Promise<Person> {
  const judge = await person(name);
  const [cat] = await database.db
    .select({ eventId: competitionCategories.eventId })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  await grantRole(database.db, admin, {
    userId: judge.id,
    kind: "judge",
    eventId: cat!.eventId,
    categoryId,
  });
  return fresh(judge);
}

/** Everything an entry could change: the rows of the four tables and the audit log. */
async function snapshot() {
  const n = async (table: typeof judgingRuns | typeof bracketRounds | typeof scoreSheets) =>
    (await database.db.select({ n: count() }).from(table))[0]!.n;
  return {
    runs: await database.db.select().from(judgingRuns),
    rounds: await n(bracketRounds),
    sheets: await database.db.select().from(scoreSheets),
    draws: await database.db.select().from(bracketDraws),
    categories: await database.db.select().from(competitionCategories),
    audit: (await database.db.select({ n: count() }).from(auditLog))[0]!.n,
  };
}

async function lastAudit() {
  const [row] = await database.db.select().from(auditLog).orderBy(desc(auditLog.at)).limit(1);
  return row!;
}

/** The refusal a call ends in, as { status, message }. */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; message?: string } | null;
  return error ? { status: error.status, message: error.message } : null;
}

beforeAll(async () => {
  database = await createTestDatabase();
  admin = await person("Ada Admin", true);
  const event = await newEvent("Clash Robotics 2030");
  eventId = event.id;
  const elsewhere = await newEvent("Otro torneo");
  organiser = await person("Olga Organiza");
  organiserElsewhere = await person("Otto Otro");
  await grantRole(database.db, admin, { userId: organiser.id, kind: "organiser", eventId });
  await grantRole(database.db, admin, {
    userId: organiserElsewhere.id,
    kind: "organiser",
    eventId: elsewhere.id,
  });
  organiser = await fresh(organiser);
  organiserElsewhere = await fresh(organiserElsewhere);
}, 60_000);
afterAll(() => database?.close());

// ——— The judge's role ———

test("an organiser makes a member judge of one category of their event; the grant carries the category and the event, and is audited", async () => {
  const sumo = await category("llaves");
  const member = await person("Julia Jueza");
  await grantRole(database.db, organiser, {
    userId: member.id,
    kind: "judge",
    eventId,
    categoryId: sumo.id,
  });
  expect(await loadGrants(database.db, member.id)).toEqual([
    { kind: "judge", eventId, categoryId: sumo.id },
  ]);
  const entry = await lastAudit();
  expect(entry.action).toBe("role.grant");
  expect(entry.role).toBe("organiser");
  expect(entry.summary).toContain(`Jurado de la categoría «${sumo.name}» de «Clash Robotics 2030»`);
  // The same member may judge a second category of the same event.
  const line = await category("tiempo");
  await grantRole(database.db, organiser, {
    userId: member.id,
    kind: "judge",
    eventId,
    categoryId: line.id,
  });
  expect(await loadGrants(database.db, member.id)).toHaveLength(2);
  await revokeRole(database.db, organiser, {
    userId: member.id,
    kind: "judge",
    eventId,
    categoryId: sumo.id,
  });
  expect(await loadGrants(database.db, member.id)).toEqual([
    { kind: "judge", eventId, categoryId: line.id },
  ]);
  expect((await lastAudit()).action).toBe("role.revoke");
});

test("a judge's grant goes with its category", async () => {
  const empty = await category("puntaje");
  const judge = await judgeOf(empty.id);
  await database.db.delete(competitionCategories).where(eq(competitionCategories.id, empty.id));
  expect(await loadGrants(database.db, judge.id)).toEqual([]);
});

test("a judge is not given by an organiser of another event, door staff or a member, nor without a category of the event: Spanish messages, nothing changed", async () => {
  const sumo = await category("llaves");
  const elsewhere = await newEvent("Tercer torneo");
  const foreign = await category("llaves", {}, elsewhere.id);
  const member = await person();
  const door = await person();
  await grantRole(database.db, admin, { userId: door.id, kind: "door", eventId });
  const before = await snapshot();
  const grants = await database.db.select().from(roleGrants);
  const target = { userId: member.id, kind: "judge", eventId, categoryId: sumo.id };
  for (const who of [organiserElsewhere, await fresh(door), member]) {
    expect(await grantRole(database.db, who, target).catch((e: unknown) => e)).toBeInstanceOf(
      NotAllowedError,
    );
  }
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ ...target, categoryId: undefined }, 400, "Elige la categoría que juzgará."],
    [{ ...target, categoryId: "" }, 400, "Elige la categoría que juzgará."],
    [{ ...target, categoryId: "no-es-un-id" }, 400, "Esa categoría no existe en este evento."],
    [{ ...target, categoryId: randomUUID() }, 400, "Esa categoría no existe en este evento."],
    [{ ...target, categoryId: foreign.id }, 400, "Esa categoría no existe en este evento."],
  ];
  for (const [input, status, message] of cases)
    expect({
      input,
      ...(await refusal(grantRole(database.db, organiser, input as never))),
    }).toEqual({ input, status, message });
  expect(
    await refusal(grantRole(database.db, admin, { ...target, eventId: undefined } as never)),
  ).toEqual({ status: 400, message: "Elige el evento de ese rol." });
  expect(await database.db.select().from(roleGrants)).toEqual(grants);
  expect(await snapshot()).toEqual(before);
});

// ——— Time trial ———

test("a judge enters runs; the ranking takes each team's best of the category's runs, with public names only", async () => {
  const line = await category("tiempo", { attempts: 2 });
  const fast = await team(line.id, "approved", "Los Rápidos");
  const slow = await team(line.id, "approved", "Los Lentos");
  await database.db.insert(teamMembers).values({
    teamId: fast,
    userId: (await person("Ana María Quispe Mamani")).id,
    categoryId: line.id,
  });
  // The new member is checked in too: the team still competes.
  await makeCompete(database.db, [fast]);
  const judge = await judgeOf(line.id);
  expect(
    await enterRun(database.db, judge, line.id, { teamId: fast, attempt: 1, timeMs: 15_000 }),
  ).toMatchObject({ outcome: "saved" });
  await enterRun(database.db, judge, line.id, {
    teamId: fast,
    attempt: "2",
    timeMs: "12000",
    penaltyMs: "500",
  });
  await enterRun(database.db, judge, line.id, { teamId: slow, attempt: 1, timeMs: null });
  await enterRun(database.db, judge, line.id, { teamId: slow, attempt: 2, timeMs: 20_000 });
  const results = (await categoryResults(database.db, line.id))!;
  expect(results.category).toMatchObject({
    format: "tiempo",
    tieRule: "segundo-tiempo",
    tieRuleLabel: "Segundo mejor tiempo",
    final: false,
  });
  expect(results.rows.map((r) => [r.place, r.team, r.best, r.runs])).toEqual([
    [1, "Los Rápidos", 12_500, [15_000, 12_500]],
    [2, "Los Lentos", 20_000, [null, 20_000]],
  ]);
  // Its first member is the one the door checked in; Ana's first surname gives her initial.
  expect(results.rows[0]!.members).toEqual(["Integrante P.", "Ana Q."]);
  const published = JSON.stringify(results);
  expect(published).not.toContain("Quispe");
  expect(published).not.toContain("@example.com");
});

test("the same run resent with the same client entry id changes nothing; the same id with other data is refused", async () => {
  const line = await category("tiempo");
  const t = await team(line.id);
  const judge = await judgeOf(line.id);
  const entry = { teamId: t, attempt: 1, timeMs: 9_876, clientEntryId: randomUUID() };
  const first = await enterRun(database.db, judge, line.id, entry);
  const other = await judgeOf(line.id);
  const before = await snapshot();
  expect(await enterRun(database.db, judge, line.id, entry)).toEqual({
    outcome: "same",
    id: first.id,
  });
  expect(await refusal(enterRun(database.db, judge, line.id, { ...entry, timeMs: 9_000 }))).toEqual(
    { status: 409, message: "Esa anotación ya se recibió con otros datos." },
  );
  // Two judges who agree: the second entry is the same result, nothing is stored twice.
  expect(
    await enterRun(database.db, other, line.id, { ...entry, clientEntryId: randomUUID() }),
  ).toEqual({ outcome: "same", id: first.id });
  expect(await snapshot()).toEqual(before);
  // A different time kept as a conflict, resent (its first answer lost on the way): the resend
  // says conflict, never that it was already noted as it stands.
  const disputed = { teamId: t, attempt: 1, timeMs: 9_000, clientEntryId: randomUUID() };
  const conflict = await enterRun(database.db, other, line.id, disputed);
  expect(conflict.outcome).toBe("conflict");
  expect(await enterRun(database.db, other, line.id, disputed)).toEqual({
    outcome: "conflict",
    id: conflict.id,
  });
});

test("a different second run for the same attempt is kept as a conflict: the first still counts until the organiser accepts the second, which is audited", async () => {
  const line = await category("tiempo");
  const t = await team(line.id, "approved", "Los Cóndores");
  const judge = await judgeOf(line.id, "Julia Jueza");
  const second = await judgeOf(line.id, "Jaime Juez");
  await enterRun(database.db, judge, line.id, { teamId: t, attempt: 1, timeMs: 10_000 });
  const conflict = await enterRun(database.db, second, line.id, {
    teamId: t,
    attempt: 1,
    timeMs: 11_000,
  });
  expect(conflict.outcome).toBe("conflict");
  expect((await categoryResults(database.db, line.id))!.rows[0]!.best).toBe(10_000);
  // A judge cannot overwrite, not even their own entry.
  expect(
    (await enterRun(database.db, judge, line.id, { teamId: t, attempt: 1, timeMs: 10_500 }))
      .outcome,
  ).toBe("conflict");
  const listed = await listConflicts(database.db, organiser, line.id);
  expect(listed.map((c) => [c.kind, c.what, c.standing, c.proposed, c.enteredByName])).toEqual([
    ["run", "Vuelta 1 de «Los Cóndores»", "10,000 s", "11,000 s", "Jaime Juez"],
    ["run", "Vuelta 1 de «Los Cóndores»", "10,000 s", "10,500 s", "Julia Jueza"],
  ]);
  // Judges do not decide conflicts.
  expect(await listConflicts(database.db, judge, line.id).catch((e: unknown) => e)).toBeInstanceOf(
    NotAllowedError,
  );
  await resolveConflict(database.db, organiser, line.id, {
    kind: "run",
    id: conflict.id,
    decision: "aceptar",
  });
  expect((await categoryResults(database.db, line.id))!.rows[0]!.best).toBe(11_000);
  const entry = await lastAudit();
  expect([entry.action, entry.actorName, entry.role]).toEqual([
    "competition.judging.resolve",
    "Olga Organiza",
    "organiser",
  ]);
  expect(entry.summary).toContain("Aceptó la anotación de Jaime Juez");
  // The other conflict now contests the accepted time; the organiser keeps it.
  const [left] = await listConflicts(database.db, organiser, line.id);
  expect(left!.standing).toBe("11,000 s");
  await resolveConflict(database.db, organiser, line.id, {
    kind: "run",
    id: left!.id,
    decision: "mantener",
  });
  expect(await listConflicts(database.db, organiser, line.id)).toEqual([]);
  expect((await lastAudit()).summary).toContain("Rechazó la anotación de Julia Jueza");
  const states = await database.db
    .select({ state: judgingRuns.state, decidedByName: judgingRuns.decidedByName })
    .from(judgingRuns)
    .where(eq(judgingRuns.categoryId, line.id))
    .orderBy(judgingRuns.enteredAt);
  expect(states.map((s) => s.state).sort()).toEqual(["rejected", "replaced", "standing"]);
  // Deciding again, or a decision that is neither: refused, nothing changed.
  const before = await snapshot();
  expect(
    await refusal(
      resolveConflict(database.db, organiser, line.id, {
        kind: "run",
        id: left!.id,
        decision: "aceptar",
      }),
    ),
  ).toEqual({ status: 404, message: "Esa anotación en conflicto no existe o ya se resolvió." });
  expect(
    await refusal(
      resolveConflict(database.db, organiser, line.id, {
        kind: "run",
        id: left!.id,
        decision: "sí",
      }),
    ),
  ).toEqual({ status: 400, message: "Elige aceptar la segunda anotación o mantener la primera." });
  expect(await snapshot()).toEqual(before);
});

test("two judges entering different times for the same run at the same moment: one stands, the other is a conflict", async () => {
  const line = await category("tiempo");
  const t = await team(line.id);
  const [a, b] = [await judgeOf(line.id), await judgeOf(line.id)];
  const outcomes = await Promise.all([
    enterRun(database.db, a, line.id, { teamId: t, attempt: 1, timeMs: 5_000 }),
    enterRun(database.db, b, line.id, { teamId: t, attempt: 1, timeMs: 6_000 }),
  ]);
  expect(outcomes.map((o) => o.outcome).sort()).toEqual(["conflict", "saved"]);
});

test("an organiser's or admin's different entry corrects the run; the audit log says who and what, and the first is kept as replaced", async () => {
  const line = await category("tiempo");
  const t = await team(line.id, "approved", "Los Pumas");
  const judge = await judgeOf(line.id);
  await enterRun(database.db, judge, line.id, { teamId: t, attempt: 1, timeMs: 30_000 });
  const fixed = await enterRun(database.db, organiser, line.id, {
    teamId: t,
    attempt: 1,
    timeMs: 13_000,
    penaltyMs: 2_000,
  });
  expect(fixed.outcome).toBe("corrected");
  const entry = await lastAudit();
  expect([entry.action, entry.actorId, entry.role, entry.itemId]).toEqual([
    "competition.judging.correct",
    organiser.id,
    "organiser",
    line.id,
  ]);
  expect(entry.summary).toBe(
    `Corrigió la vuelta 1 de «Los Pumas»: 30,000 s → 13,000 s + 2,000 s de penalización en «${line.name}» de «Clash Robotics 2030»`,
  );
  expect((await categoryResults(database.db, line.id))!.rows[0]!.best).toBe(15_000);
  await enterRun(database.db, admin, line.id, { teamId: t, attempt: 1, timeMs: 14_000 });
  expect((await lastAudit()).role).toBe("admin");
  const rows = await database.db
    .select({ state: judgingRuns.state, decidedByName: judgingRuns.decidedByName })
    .from(judgingRuns)
    .where(eq(judgingRuns.categoryId, line.id));
  expect(rows.filter((r) => r.state === "replaced")).toHaveLength(2);
});

test("a run is refused to a visitor, a member, door staff, a judge of another category and an organiser of another event; nothing changes", async () => {
  const line = await category("tiempo");
  const otherLine = await category("tiempo");
  const t = await team(line.id);
  const door = await person();
  await grantRole(database.db, admin, { userId: door.id, kind: "door", eventId });
  const before = await snapshot();
  for (const who of [
    null,
    await person(),
    await fresh(door),
    await judgeOf(otherLine.id),
    organiserElsewhere,
  ]) {
    expect(
      await enterRun(database.db, who, line.id, { teamId: t, attempt: 1, timeMs: 1_000 }).catch(
        (e: unknown) => e,
      ),
    ).toBeInstanceOf(NotAllowedError);
  }
  // A judge's grant taken back is gone at their next request.
  const judge = await judgeOf(line.id);
  await revokeRole(database.db, admin, {
    userId: judge.id,
    kind: "judge",
    eventId,
    categoryId: line.id,
  });
  expect(
    await enterRun(database.db, await fresh(judge), line.id, {
      teamId: t,
      attempt: 1,
      timeMs: 1_000,
    }).catch((e: unknown) => e),
  ).toBeInstanceOf(NotAllowedError);
  const after = await snapshot();
  expect({ ...after, audit: 0 }).toEqual({ ...before, audit: 0 });
});

test("a result for a team that does not compete (pending, rejected, withdrawn, another category's, unknown) is refused in Spanish", async () => {
  const line = await category("tiempo");
  const elsewhere = await category("tiempo");
  const judge = await judgeOf(line.id);
  const approved = await team(line.id);
  const teams = [
    await team(line.id, "pending"),
    await team(line.id, "rejected"),
    await team(line.id, "withdrawn"),
    await team(elsewhere.id),
    randomUUID(),
    "no-es-un-id",
    undefined,
  ];
  expect(await teamsInPlay(database.db, line.id)).toEqual([approved]);
  const before = await snapshot();
  for (const teamId of teams)
    expect({
      teamId,
      ...(await refusal(enterRun(database.db, judge, line.id, { teamId, attempt: 1, timeMs: 10 }))),
    }).toEqual({ teamId, status: 409, message: "Ese equipo no compite en esta categoría." });
  expect(await snapshot()).toEqual(before);
});

test("bad runs: a time or penalty out of range, an attempt the category does not count, malformed numbers, ids and category — a Spanish 4xx and nothing changed", async () => {
  const line = await category("tiempo", { attempts: 3 });
  const t = await team(line.id);
  const judge = await judgeOf(line.id);
  const run = { teamId: t, attempt: 1, timeMs: 10_000 };
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ ...run, timeMs: 0 }, 400, "El tiempo debe estar entre 0,001 s y 60 minutos."],
    [{ ...run, timeMs: 3_600_001 }, 400, "El tiempo debe estar entre 0,001 s y 60 minutos."],
    [{ ...run, penaltyMs: 600_001 }, 400, "Las penalizaciones deben estar entre 0 y 10 minutos."],
    [{ ...run, attempt: 4 }, 400, "Esa vuelta no existe: la categoría cuenta menos vueltas."],
    [{ ...run, attempt: 0 }, 400, "Esa vuelta no existe: la categoría cuenta menos vueltas."],
    [{ ...run, timeMs: 12.5 }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ ...run, timeMs: "doce" }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ ...run, timeMs: undefined }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ ...run, attempt: ["1"] }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ ...run, penaltyMs: -5 }, 400, "Las penalizaciones deben estar entre 0 y 10 minutos."],
    [{ ...run, penaltyMs: "-5" }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ ...run, clientEntryId: "corto" }, 400, "El identificador de la anotación no es válido."],
    [
      { ...run, clientEntryId: "x'; drop table judging_runs; --" },
      400,
      "El identificador de la anotación no es válido.",
    ],
    [{ ...run, clientEntryId: 42 }, 400, "El identificador de la anotación no es válido."],
  ];
  const sheet = await category("puntaje");
  const before = await snapshot();
  for (const [fields, status, message] of cases)
    expect({
      fields,
      ...(await refusal(enterRun(database.db, judge, line.id, fields as never))),
    }).toEqual({ fields, status, message });
  for (const categoryId of [randomUUID(), "no-es-un-id", null])
    expect(await refusal(enterRun(database.db, judge, categoryId, run))).toEqual({
      status: 404,
      message: "Categoría no encontrada.",
    });
  // A member without any role is refused before being told whether the category exists.
  expect(
    await enterRun(database.db, await person(), randomUUID(), run).catch((e: unknown) => e),
  ).toBeInstanceOf(NotAllowedError);
  // A run for a category judged another way.
  expect(await refusal(enterRun(database.db, admin, sheet.id, run))).toEqual({
    status: 409,
    message: "Esta categoría no se juzga de esa forma.",
  });
  expect(await snapshot()).toEqual(before);
});

test("a category marked final takes no entry, correction or decision until its organiser reopens it; both are audited", async () => {
  const line = await category("tiempo");
  const t = await team(line.id);
  const judge = await judgeOf(line.id);
  await enterRun(database.db, judge, line.id, { teamId: t, attempt: 1, timeMs: 10_000 });
  const conflict = await enterRun(database.db, judge, line.id, {
    teamId: t,
    attempt: 1,
    timeMs: 9_000,
  });
  // Judges do not mark final.
  expect(await markFinal(database.db, judge, line.id).catch((e: unknown) => e)).toBeInstanceOf(
    NotAllowedError,
  );
  // Not while an entry waits for a decision (decision 060): certificates go out on what is final.
  const waiting = await snapshot();
  expect(await refusal(markFinal(database.db, organiser, line.id))).toEqual({
    status: 409,
    message:
      "Quedan anotaciones en conflicto: decídelas antes de marcar los resultados como finales.",
  });
  expect(await snapshot()).toEqual(waiting);
  await resolveConflict(database.db, organiser, line.id, {
    kind: "run",
    id: conflict.id,
    decision: "mantener",
  });
  await markFinal(database.db, organiser, line.id);
  expect((await lastAudit()).action).toBe("competition.category.final");
  expect((await categoryResults(database.db, line.id))!.category.final).toBe(true);
  const before = await snapshot();
  const finalMessage = {
    status: 409,
    message:
      "Los resultados de esta categoría ya son finales: la organización debe reabrirla para anotar o corregir.",
  };
  expect(
    await refusal(enterRun(database.db, judge, line.id, { teamId: t, attempt: 2, timeMs: 8_000 })),
  ).toEqual(finalMessage);
  expect(
    await refusal(
      enterRun(database.db, organiser, line.id, { teamId: t, attempt: 1, timeMs: 8_000 }),
    ),
  ).toEqual(finalMessage);
  expect(
    await refusal(
      resolveConflict(database.db, organiser, line.id, {
        kind: "run",
        id: conflict.id,
        decision: "aceptar",
      }),
    ),
  ).toEqual(finalMessage);
  expect(await refusal(markFinal(database.db, organiser, line.id))).toEqual({
    status: 409,
    message: "La categoría ya está marcada como final.",
  });
  expect(await snapshot()).toEqual(before);
  await reopenCategory(database.db, organiser, line.id);
  expect((await lastAudit()).action).toBe("competition.category.reopen");
  expect(await refusal(reopenCategory(database.db, organiser, line.id))).toEqual({
    status: 409,
    message: "La categoría no está marcada como final.",
  });
  expect(
    (await enterRun(database.db, judge, line.id, { teamId: t, attempt: 2, timeMs: 8_000 })).outcome,
  ).toBe("saved");
});

// ——— Bracket ———

test("a draw keeps its random number and the order it gives: drawing again from the number gives the same order", async () => {
  const sumo = await category("llaves");
  const teams = [
    await team(sumo.id),
    await team(sumo.id),
    await team(sumo.id),
    await team(sumo.id),
  ];
  const judge = await judgeOf(sumo.id);
  expect(await drawBracket(database.db, judge, sumo.id).catch((e: unknown) => e)).toBeInstanceOf(
    NotAllowedError,
  );
  const drawn = await drawBracket(database.db, organiser, sumo.id);
  const [stored] = await database.db
    .select()
    .from(bracketDraws)
    .where(eq(bracketDraws.categoryId, sumo.id));
  expect(stored).toMatchObject({ method: "sorteo", seed: drawn.seed, madeByName: "Olga Organiza" });
  expect(stored!.teamIds).toEqual(drawOrder(teams, stored!.seed!));
  expect(drawOrder([...teams].reverse(), stored!.seed!)).toEqual(stored!.teamIds);
  const entry = await lastAudit();
  expect(entry.action).toBe("competition.bracket.draw");
  expect(entry.summary).toContain(`número ${drawn.seed}`);
  const results = (await categoryResults(database.db, sumo.id))!;
  expect(results.bracket).toMatchObject({ method: "sorteo", seed: drawn.seed });
});

test("five seeded teams: the best three pass the first round, a bye takes no round, a match waits for its teams, rounds go in order, and the final and third place give places", async () => {
  const sumo = await category("llaves");
  const ids: string[] = [];
  for (const name of ["Uno", "Dos", "Tres", "Cuatro", "Cinco"])
    ids.push(await team(sumo.id, "approved", name));
  const [one, two, three, four, five] = ids as [string, string, string, string, string];
  const judge = await judgeOf(sumo.id);
  expect(
    await refusal(
      enterRound(database.db, judge, sumo.id, { matchId: "r1-0", round: 1, winnerTeamId: one }),
    ),
  ).toEqual({
    status: 409,
    message: "Las llaves todavía no están armadas: la organización debe sortearlas o sembrarlas.",
  });
  expect(
    await refusal(seedBracket(database.db, organiser, sumo.id, [one, two, three, four])),
  ).toEqual({
    status: 400,
    message: "El orden de las llaves debe nombrar a cada equipo una sola vez.",
  });
  expect(
    await refusal(seedBracket(database.db, organiser, sumo.id, [one, one, three, four, five])),
  ).toMatchObject({ status: 400 });
  expect(await refusal(seedBracket(database.db, organiser, sumo.id, "uno,dos"))).toMatchObject({
    status: 400,
  });
  await seedBracket(database.db, organiser, sumo.id, ids);
  const bracket = (await categoryResults(database.db, sumo.id))!.bracket!;
  // Eight slots: 1 v –, 4 v 5, 2 v –, 3 v –.
  expect(bracket.rounds[0]!.map((m) => [m.id, m.a, m.b, m.bye])).toEqual([
    ["r1-0", one, null, true],
    ["r1-1", four, five, false],
    ["r1-2", two, null, true],
    ["r1-3", three, null, true],
  ]);
  const round = (matchId: string, r: number, winnerTeamId: string, who: Person = judge) =>
    enterRound(database.db, who, sumo.id, { matchId, round: r, winnerTeamId });
  const before = await snapshot();
  const refused: Array<[() => Promise<unknown>, number, string]> = [
    [() => round("r1-0", 1, one), 409, "Ese equipo pasa sin rival: no hay rondas que anotar."],
    [
      () => round("r2-0", 1, one),
      409,
      "Ese partido todavía no se juega: falta saber quién llega a él.",
    ],
    [() => round("r1-1", 2, four), 409, "Anota antes las rondas anteriores de este partido."],
    [
      () => round("r1-1", 1, one),
      400,
      "El ganador de la ronda debe ser uno de los dos equipos del partido.",
    ],
    [() => round("r9-9", 1, one), 404, "Ese partido no existe en las llaves."],
    [
      () => round("tercer-puesto", 1, one),
      409,
      "Ese partido todavía no se juega: falta saber quién llega a él.",
    ],
    [
      () =>
        enterRound(database.db, judge, sumo.id, { matchId: "r1-1", round: 4, winnerTeamId: four }),
      400,
      "Faltan datos de la anotación o no son válidos.",
    ],
    [
      () => enterRound(database.db, judge, sumo.id, { matchId: 7, round: 1, winnerTeamId: four }),
      400,
      "Faltan datos de la anotación o no son válidos.",
    ],
    [
      () =>
        enterRound(database.db, judge, sumo.id, { matchId: "r1-1", round: 1, winnerTeamId: "x" }),
      409,
      "Ese equipo no compite en esta categoría.",
    ],
  ];
  for (const [call, status, message] of refused)
    expect(await refusal(call())).toEqual({ status, message });
  expect(await snapshot()).toEqual(before);
  // 4 v 5: five wins two rounds of three.
  await round("r1-1", 1, four);
  await round("r1-1", 2, five);
  await round("r1-1", 3, five);
  expect(await refusal(round("r1-1", 3, five))).toBeNull(); // the same round again: nothing new
  expect(await refusal(round("r1-1", 4, five))).toMatchObject({ status: 400 });
  // The bracket cannot be drawn or seeded again once rounds are entered.
  expect(await refusal(drawBracket(database.db, organiser, sumo.id))).toEqual({
    status: 409,
    message: "Las llaves ya tienen rondas anotadas: no se pueden armar de nuevo.",
  });
  // Semifinals: 1 v 5, 2 v 3. Final 1 v 2. Third place 5 v 3.
  for (const [m, w] of [
    ["r2-0", one],
    ["r2-1", two],
    ["r3-0", one],
    ["tercer-puesto", three],
  ] as const) {
    await round(m, 1, w);
    await round(m, 2, w);
  }
  const results = (await categoryResults(database.db, sumo.id))!;
  expect(results.rows.map((r) => [r.place, r.team])).toEqual([
    [1, "Uno"],
    [2, "Dos"],
    [3, "Tres"],
    [4, "Cinco"],
    [5, "Cuatro"],
  ]);
  expect(await refusal(round("r3-0", 3, two))).toEqual({
    status: 409,
    message: "Ese partido ya tiene ganador.",
  });
});

test("a different second winner for a round is a conflict; the organiser keeps the first; an organiser's correction is audited", async () => {
  const sumo = await category("llaves", { tieRule: "tercero-compartido" });
  const a = await team(sumo.id, "approved", "Alfa");
  const b = await team(sumo.id, "approved", "Beta");
  await seedBracket(database.db, admin, sumo.id, [a, b]);
  const judge = await judgeOf(sumo.id);
  const other = await judgeOf(sumo.id);
  const clientEntryId = randomUUID();
  const first = await enterRound(database.db, judge, sumo.id, {
    matchId: "r1-0",
    round: 1,
    winnerTeamId: a,
    clientEntryId,
  });
  expect(
    await enterRound(database.db, judge, sumo.id, {
      matchId: "r1-0",
      round: 1,
      winnerTeamId: a,
      clientEntryId,
    }),
  ).toEqual({ outcome: "same", id: first.id });
  const conflict = await enterRound(database.db, other, sumo.id, {
    matchId: "r1-0",
    round: 1,
    winnerTeamId: b,
  });
  expect(conflict.outcome).toBe("conflict");
  const [listed] = await listConflicts(database.db, organiser, sumo.id);
  expect([listed!.what, listed!.standing, listed!.proposed]).toEqual([
    "Ronda 1 de la final («Alfa» contra «Beta»)",
    "ganó «Alfa»",
    "ganó «Beta»",
  ]);
  await resolveConflict(database.db, organiser, sumo.id, {
    kind: "round",
    id: conflict.id,
    decision: "mantener",
  });
  expect(
    (
      await database.db
        .select({ state: bracketRounds.state })
        .from(bracketRounds)
        .where(eq(bracketRounds.id, conflict.id))
    )[0]!.state,
  ).toBe("rejected");
  const fixed = await enterRound(database.db, organiser, sumo.id, {
    matchId: "r1-0",
    round: 1,
    winnerTeamId: b,
  });
  expect(fixed.outcome).toBe("corrected");
  expect((await lastAudit()).summary).toContain(
    "Corrigió la ronda 1 de la final: ganó «Beta» (antes «Alfa»)",
  );
});

test("three teams: the first seed's bye, one semifinal, and its loser is third alone", async () => {
  const sumo = await category("llaves");
  const [x, y, z] = [
    await team(sumo.id, "approved", "X"),
    await team(sumo.id, "approved", "Y"),
    await team(sumo.id, "approved", "Z"),
  ];
  await seedBracket(database.db, organiser, sumo.id, [x, y, z]);
  for (const [m, w] of [
    ["r1-1", y],
    ["r2-0", x],
  ] as const) {
    await enterRound(database.db, organiser, sumo.id, { matchId: m, round: 1, winnerTeamId: w });
    await enterRound(database.db, organiser, sumo.id, { matchId: m, round: 2, winnerTeamId: w });
  }
  expect((await categoryResults(database.db, sumo.id))!.rows.map((r) => [r.place, r.team])).toEqual(
    [
      [1, "X"],
      [2, "Y"],
      [3, "Z"],
    ],
  );
});

test("a bracket needs two teams in play to be drawn", async () => {
  const sumo = await category("llaves");
  await team(sumo.id);
  await team(sumo.id, "pending");
  expect(await refusal(drawBracket(database.db, organiser, sumo.id))).toEqual({
    status: 409,
    message: "Las llaves necesitan al menos dos equipos.",
  });
});

// ——— Score sheets ———

test("score sheets: each judge scores every criterion; a team's score is the average of its judges; the tie rule orders equal averages", async () => {
  const challenge = await category("puntaje");
  const judge = await judgeOf(challenge.id);
  await setJudgingRules(database.db, organiser, challenge.id, {
    tieRule: "primer-criterio",
    criteria: [
      { name: "Diseño", max: 10 },
      { name: "Programación", max: 20 },
    ],
  });
  expect((await lastAudit()).summary).toContain("criterios: Diseño (10), Programación (20)");
  const red = await team(challenge.id, "approved", "Rojos");
  const blue = await team(challenge.id, "approved", "Azules");
  const other = await judgeOf(challenge.id);
  await enterScoreSheet(database.db, judge, challenge.id, {
    teamId: red,
    points: { c1: 800, c2: 1000 },
  });
  await enterScoreSheet(database.db, other, challenge.id, {
    teamId: red,
    points: { c1: 600, c2: 1200 },
  });
  await enterScoreSheet(database.db, judge, challenge.id, {
    teamId: blue,
    points: { c1: 900, c2: 900 },
  });
  const rows = (await categoryResults(database.db, challenge.id))!.rows;
  // Both average 18 points; Azules has the better first criterion (9 against 7).
  expect(rows.map((r) => [r.place, r.team, r.average, r.byCriterion, r.judges])).toEqual([
    [1, "Azules", 1800, [900, 900], 1],
    [2, "Rojos", 1800, [700, 1100], 2],
  ]);
  // Criteria cannot change once sheets exist.
  expect(
    await refusal(
      setJudgingRules(database.db, organiser, challenge.id, {
        tieRule: "compartido",
        criteria: [{ name: "Otro", max: 5 }],
      }),
    ),
  ).toEqual({
    status: 409,
    message: "La categoría ya tiene hojas de puntaje: sus criterios no se pueden cambiar.",
  });
  await setJudgingRules(database.db, organiser, challenge.id, { tieRule: "compartido" });
  expect((await categoryResults(database.db, challenge.id))!.rows.map((r) => r.place)).toEqual([
    1, 1,
  ]);
});

test("bad sheets: a criterion missing, points out of range, another judge's sheet, no criteria yet — refused in Spanish, nothing changed; an organiser corrects a judge's sheet, audited; the judge's different second sheet is a conflict", async () => {
  const empty = await category("puntaje");
  const t0 = await team(empty.id);
  expect(
    await refusal(enterScoreSheet(database.db, organiser, empty.id, { teamId: t0, points: {} })),
  ).toEqual({ status: 409, message: "La categoría todavía no tiene criterios de puntaje." });
  const challenge = await category("puntaje", {
    criteria: [
      { id: "c1", name: "Diseño", max: 10 },
      { id: "c2", name: "Robot", max: 5 },
    ],
  });
  const t = await team(challenge.id, "approved", "Verdes");
  const judge = await judgeOf(challenge.id, "Juana Jurado");
  const other = await judgeOf(challenge.id);
  const before = await snapshot();
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ teamId: t, points: { c1: 500 } }, 400, "Anota un puntaje para cada criterio."],
    [
      { teamId: t, points: { c1: 500, c2: 501 } },
      400,
      "Cada puntaje debe estar entre 0 y el máximo del criterio.",
    ],
    [
      { teamId: t, points: { c1: -1, c2: 0 } },
      400,
      "Cada puntaje debe estar entre 0 y el máximo del criterio.",
    ],
    [
      { teamId: t, points: { c1: "5", c2: 0 } },
      400,
      "Cada puntaje debe estar entre 0 y el máximo del criterio.",
    ],
    [{ teamId: t, points: "c1=5" }, 400, "Faltan datos de la anotación o no son válidos."],
    [{ teamId: t, points: [500, 400] }, 400, "Faltan datos de la anotación o no son válidos."],
    [
      { teamId: t, points: { c1: 1, c2: 1 }, judgeId: other.id },
      403,
      "Un jurado solo anota su propia hoja de puntaje.",
    ],
  ];
  for (const [fields, status, message] of cases)
    expect({
      fields,
      ...(await refusal(enterScoreSheet(database.db, judge, challenge.id, fields as never))),
    }).toEqual({ fields, status, message });
  expect(
    await refusal(
      enterScoreSheet(database.db, organiser, challenge.id, {
        teamId: t,
        points: { c1: 1, c2: 1 },
        judgeId: other.id,
      }),
    ),
  ).toEqual({ status: 404, message: "Ese jurado no tiene una hoja de puntaje para ese equipo." });
  expect(await snapshot()).toEqual(before);
  // Extra keys are dropped; the sheet is the category's criteria only.
  await enterScoreSheet(database.db, judge, challenge.id, {
    teamId: t,
    points: { c1: 750, c2: 250, c9: 99 },
  });
  const [stored] = await database.db
    .select()
    .from(scoreSheets)
    .where(eq(scoreSheets.categoryId, challenge.id));
  expect(stored!.points).toEqual({ c1: 750, c2: 250 });
  expect(
    (
      await enterScoreSheet(database.db, judge, challenge.id, {
        teamId: t,
        points: { c1: 700, c2: 250 },
      })
    ).outcome,
  ).toBe("conflict");
  const fixed = await enterScoreSheet(database.db, organiser, challenge.id, {
    teamId: t,
    points: { c1: 650, c2: 250 },
    judgeId: judge.id,
  });
  expect(fixed.outcome).toBe("corrected");
  expect((await lastAudit()).summary).toContain(
    "Corrigió la hoja de puntaje de Juana Jurado para «Verdes»: Diseño 7,5, Robot 2,5 → Diseño 6,5, Robot 2,5",
  );
  expect((await categoryResults(database.db, challenge.id))!.rows[0]!.average).toBe(900);
});

test("judging rules: an unknown tie rule or run count, or malformed criteria, are refused in Spanish; judges may not set them", async () => {
  const line = await category("tiempo");
  const judge = await judgeOf(line.id);
  expect(
    await setJudgingRules(database.db, judge, line.id, { tieRule: "compartido" }).catch(
      (e: unknown) => e,
    ),
  ).toBeInstanceOf(NotAllowedError);
  const challenge = await category("puntaje");
  const before = await snapshot();
  expect(
    await refusal(setJudgingRules(database.db, organiser, line.id, { tieRule: "tercer-puesto" })),
  ).toEqual({
    status: 400,
    message: "Elige una regla de desempate de la lista.",
  });
  for (const attempts of [0, 11, "tres", 2.5])
    expect(
      await refusal(
        setJudgingRules(database.db, organiser, line.id, { tieRule: "compartido", attempts }),
      ),
    ).toEqual({
      status: 400,
      message: "Escribe cuántas vueltas cuentan, un número entero entre 1 y 10.",
    });
  for (const criteria of [
    [],
    "Diseño",
    [{ name: "", max: 5 }],
    [{ name: "Diseño", max: 1001 }],
    [{ name: "D" }],
  ])
    expect(
      await refusal(
        setJudgingRules(database.db, organiser, challenge.id, { tieRule: "compartido", criteria }),
      ),
    ).toMatchObject({ status: 400 });
  expect(await snapshot()).toEqual(before);
  await setJudgingRules(database.db, organiser, line.id, {
    tieRule: "menos-penalizaciones",
    attempts: "4",
  });
  const [saved] = await database.db
    .select({ tieRule: competitionCategories.tieRule, attempts: competitionCategories.attempts })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, line.id));
  expect(saved).toEqual({ tieRule: "menos-penalizaciones", attempts: 4 });
});

// ——— A member's data ———

test("a member's data download lists their team's place and what they entered as a judge; deleting a judge's account keeps their results under 'cuenta eliminada'", async () => {
  const line = await category("tiempo");
  const t = await team(line.id, "approved", "Los Andes");
  const competitor = await person("Carla Compite");
  await database.db
    .insert(teamMembers)
    .values({ teamId: t, userId: competitor.id, categoryId: line.id });
  await makeCompete(database.db, [t]);
  const judge = await judgeOf(line.id, "Jorge Juzga");
  await enterRun(database.db, judge, line.id, { teamId: t, attempt: 1, timeMs: 7_000 });
  await markFinal(database.db, organiser, line.id);
  const mine = await exportMemberData(database.db, competitor);
  expect(mine.resultados).toEqual([
    {
      equipo: "Los Andes",
      categoria: line.name,
      evento: "Clash Robotics 2030",
      puesto: 1,
      final: true,
    },
  ]);
  const judged = await exportMemberData(database.db, judge);
  expect(judged.anotacionesDeResultados).toEqual([
    expect.objectContaining({ tipo: "vuelta", categoria: line.name, estado: "cuenta" }),
  ]);
  await deleteAccount(database.db, judge);
  const [run] = await database.db
    .select()
    .from(judgingRuns)
    .where(and(eq(judgingRuns.categoryId, line.id), eq(judgingRuns.teamId, t)));
  expect([run!.enteredBy, run!.enteredByName]).toEqual([null, "cuenta eliminada"]);
  expect((await categoryResults(database.db, line.id))!.rows[0]!.best).toBe(7_000);
});

// ——— After the review ———

test("someone who organises the event and also judges one of its categories corrects, never conflicts, whatever the order of their grants", async () => {
  const line = await category("tiempo");
  const t = await team(line.id, "approved", "Los Halcones");
  const both = await judgeOf(line.id, "Olivia Ambas");
  await grantRole(database.db, admin, { userId: both.id, kind: "organiser", eventId });
  const grants = (await fresh(both)).grants;
  const judgeFirst = { ...both, grants: [...grants].sort((a) => (a.kind === "judge" ? -1 : 1)) };
  const organiserFirst = {
    ...both,
    grants: [...grants].sort((a) => (a.kind === "judge" ? 1 : -1)),
  };
  await enterRun(database.db, judgeFirst, line.id, { teamId: t, attempt: 1, timeMs: 9_000 });
  expect(
    await enterRun(database.db, judgeFirst, line.id, { teamId: t, attempt: 1, timeMs: 8_000 }),
  ).toMatchObject({ outcome: "corrected" });
  expect(
    await enterRun(database.db, organiserFirst, line.id, { teamId: t, attempt: 1, timeMs: 7_000 }),
  ).toMatchObject({ outcome: "corrected" });
  const conflicts = await database.db
    .select()
    .from(judgingRuns)
    .where(and(eq(judgingRuns.categoryId, line.id), eq(judgingRuns.state, "conflict")));
  expect(conflicts).toEqual([]);
});

test("a judge's account deleted with a sheet in conflict: the first sheet stands, the other is rejected, and no sheets without a judge are left to pair", async () => {
  const challenge = await category("puntaje");
  await setJudgingRules(database.db, organiser, challenge.id, {
    tieRule: "compartido",
    criteria: [{ name: "Diseño", max: 10 }],
  });
  const t = await team(challenge.id, "approved", "Los Linces");
  const judge = await judgeOf(challenge.id, "Jaime Juzga");
  await enterScoreSheet(database.db, judge, challenge.id, { teamId: t, points: { c1: 700 } });
  expect(
    await enterScoreSheet(database.db, judge, challenge.id, { teamId: t, points: { c1: 900 } }),
  ).toMatchObject({ outcome: "conflict" });
  await deleteAccount(database.db, judge);
  expect(await listConflicts(database.db, organiser, challenge.id)).toEqual([]);
  const sheets = await database.db
    .select({ state: scoreSheets.state, points: scoreSheets.points, judgeId: scoreSheets.judgeId })
    .from(scoreSheets)
    .where(eq(scoreSheets.categoryId, challenge.id));
  expect(sheets.sort((a, b) => a.state.localeCompare(b.state))).toEqual([
    { state: "rejected", points: { c1: 900 }, judgeId: null },
    { state: "standing", points: { c1: 700 }, judgeId: null },
  ]);
  expect((await categoryResults(database.db, challenge.id))!.rows[0]).toMatchObject({
    average: 700,
    judges: 1,
  });
});

test("a category with results keeps its format: changing it is refused in Spanish with nothing changed", async () => {
  const line = await category("tiempo", { name: `Velocidad ${randomUUID().slice(0, 4)}` });
  const t = await team(line.id, "approved", "Los Zorros");
  await enterRun(database.db, organiser, line.id, { teamId: t, attempt: 1, timeMs: 9_000 });
  const fields = {
    nombre: line.name,
    nivel: "secundaria",
    minimo: "1",
    maximo: "3",
    entrenador: "",
    reglas: "",
    peso: "",
    tamano: "",
    cupo: "",
    cuota: "",
    fechaCierre: "2030-11-30",
    horaCierre: "18:00",
    formato: "llaves",
  };
  expect(
    await refusal(
      updateCategory(database.db, organiser, eventId, line.id, fields, "America/La_Paz"),
    ),
  ).toEqual({ status: 409, message: CATEGORY_MESSAGES.formatLocked });
  const [still] = await database.db
    .select({ format: competitionCategories.format })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, line.id));
  expect(still!.format).toBe("tiempo");
  // The same form with its format unchanged saves.
  await updateCategory(
    database.db,
    organiser,
    eventId,
    line.id,
    { ...fields, formato: "tiempo" },
    "America/La_Paz",
  );
});

test("a control character in a criterion's name is refused in Spanish, never a 500; an e-mail with one finds nobody", async () => {
  const challenge = await category("puntaje");
  const before = await snapshot();
  expect(
    await refusal(
      setJudgingRules(database.db, organiser, challenge.id, {
        tieRule: "compartido",
        criteria: [{ name: "Dise\u0000ño", max: 10 }],
      }),
    ),
  ).toMatchObject({ status: 400 });
  expect(await snapshot()).toEqual(before);
  expect(
    await findMemberByEmail(database.db, organiser, eventId, "olga\u0000@example.com"),
  ).toBeNull();
});
