// What a category's organisers (and admins) do on competition day (decision 057): set how it is
// judged, draw or seed a bracket, decide conflicting entries, mark the results final and reopen
// them. Each is refused unless the permissions module allows it and is written to the audit log.
import { randomInt } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  bracketDraws,
  bracketRounds,
  competitionCategories,
  competitionTeams,
  judgingRuns,
  scoreSheets,
} from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { FORMATS, type Format } from "../categories";
import { drawOrder } from "./bracket";
import {
  JudgingError,
  nameOf,
  openCategory,
  type JudgingActor,
  type OpenCategory,
} from "./category.server";
import { teamsInPlay } from "./eligible.server";
import {
  hasRounds,
  hasSheets,
  matchName,
  ofMatch,
  runText,
  sheetText,
  storedBracket,
} from "./entries.server";
import { finalChangedMeanwhile, JUDGING_MESSAGES } from "./messages";
import { isTieRule, TIE_RULES } from "./rules";
import { criteriaProblem, SHEET_LIMITS, type Criterion } from "./score-sheet";
import { RUN_LIMITS } from "./time-trial";

async function audit(
  tx: Tx,
  actor: NonNullable<JudgingActor>,
  open: OpenCategory,
  action: string,
  summary: string,
) {
  await recordAudit(tx, {
    actor,
    role: open.role,
    action: `competition.${action}`,
    itemKind: "category",
    itemId: open.category.id,
    summary: `${summary} «${open.category.name}» de «${open.eventName}»`,
  });
}

// ——— How the category is judged ———

export interface RulesFields {
  tieRule: unknown;
  /** A time trial's counted runs. */
  attempts?: unknown;
  /** A score sheet's criteria, in order: [{ name, max }]. */
  criteria?: unknown;
}

/** The tie rule, a time trial's number of runs, a score sheet's criteria ('c1', 'c2'… by order). */
export async function setJudgingRules(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  fields: RulesFields,
): Promise<void> {
  await db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging");
    const { category } = open;
    const format = category.format as Format;
    if (!isTieRule(format, fields.tieRule)) throw new JudgingError(JUDGING_MESSAGES.tieRuleInvalid);
    const tieRule = fields.tieRule as string;
    let attempts = category.attempts;
    if (format === "tiempo" && fields.attempts !== undefined) {
      const n =
        typeof fields.attempts === "string" && /^\d{1,2}$/.test(fields.attempts.trim())
          ? Number(fields.attempts)
          : fields.attempts;
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > RUN_LIMITS.attemptsMax)
        throw new JudgingError(JUDGING_MESSAGES.attemptsInvalid);
      attempts = n;
    }
    let criteria = category.criteria;
    if (format === "puntaje" && fields.criteria !== undefined) {
      const typed = fields.criteria;
      if (!Array.isArray(typed) || typed.length > SHEET_LIMITS.criteriaMax)
        throw new JudgingError(JUDGING_MESSAGES.criteriaInvalid);
      const next: Criterion[] = typed.map((c: unknown, i) => {
        const item = (typeof c === "object" && c !== null ? c : {}) as Record<string, unknown>;
        return {
          id: `c${i + 1}`,
          name: typeof item.name === "string" ? item.name.trim().replace(/\s+/g, " ") : "",
          max: typeof item.max === "number" ? item.max : NaN,
        };
      });
      if (criteriaProblem(next)) throw new JudgingError(JUDGING_MESSAGES.criteriaInvalid);
      const changed = JSON.stringify(next) !== JSON.stringify(category.criteria);
      if (changed && (await hasSheets(tx, category.id)))
        throw new JudgingError(JUDGING_MESSAGES.criteriaLocked, 409);
      criteria = next;
    }
    await tx
      .update(competitionCategories)
      .set({ tieRule, attempts, criteria, updatedAt: new Date() })
      .where(eq(competitionCategories.id, category.id));
    const rule = (TIE_RULES[format] as Record<string, { label: string }>)[tieRule]!.label;
    const detail =
      format === "tiempo"
        ? `, ${attempts} vueltas`
        : format === "puntaje"
          ? `, criterios: ${criteria.map((c) => `${c.name} (${c.max})`).join(", ")}`
          : "";
    await audit(
      tx,
      actor!,
      open,
      "judging.rules",
      `Fijó cómo se juzga (${FORMATS[format]}; desempate: ${rule}${detail}) la categoría`,
    );
  });
}

// ——— A bracket's draw ———

async function bracketTeams(tx: Tx, open: OpenCategory): Promise<string[]> {
  if (await hasRounds(tx, open.category.id))
    throw new JudgingError(JUDGING_MESSAGES.drawLocked, 409);
  const teams = await teamsInPlay(tx, open.category.id);
  if (teams.length < 2) throw new JudgingError(JUDGING_MESSAGES.bracketTooSmall, 409);
  return teams;
}

async function storeDraw(
  tx: Tx,
  actor: NonNullable<JudgingActor>,
  categoryId: string,
  draw: { method: "sorteo" | "siembra"; seed: number | null; teamIds: string[] },
  now: Date,
) {
  const row = { ...draw, madeBy: actor.id, madeByName: nameOf(actor), madeAt: now };
  await tx
    .insert(bracketDraws)
    .values({ categoryId, ...row })
    .onConflictDoUpdate({ target: bracketDraws.categoryId, set: row });
}

/**
 * 'Sortear llaves': the teams in play in an order drawn from a new random 32-bit number, which is
 * kept, so that anyone can draw the same order again (drawOrder). Only before any round is entered.
 */
export async function drawBracket(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  now: Date = new Date(),
): Promise<{ seed: number; teamIds: string[] }> {
  return db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging", { format: "llaves" });
    const teams = await bracketTeams(tx, open);
    const seed = randomInt(0, 2 ** 32);
    const teamIds = drawOrder(teams, seed);
    await storeDraw(tx, actor!, open.category.id, { method: "sorteo", seed, teamIds }, now);
    await audit(
      tx,
      actor!,
      open,
      "bracket.draw",
      `Sorteó las llaves (número ${seed}, ${teamIds.length} equipos) de la categoría`,
    );
    return { seed, teamIds };
  });
}

/** 'Sembrar llaves': the organisers' order, best seed first, naming each team in play once. */
export async function seedBracket(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  order: unknown,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging", { format: "llaves" });
    const teams = await bracketTeams(tx, open);
    if (
      !Array.isArray(order) ||
      order.length !== teams.length ||
      new Set(order).size !== order.length ||
      !order.every((id) => typeof id === "string" && teams.includes(id))
    )
      throw new JudgingError(JUDGING_MESSAGES.seedsNotTeams);
    await storeDraw(
      tx,
      actor!,
      open.category.id,
      { method: "siembra", seed: null, teamIds: order as string[] },
      now,
    );
    await audit(
      tx,
      actor!,
      open,
      "bracket.seed",
      `Sembró las llaves (${order.length} equipos) de la categoría`,
    );
  });
}

// ——— Conflicts ———

export type EntryKind = "run" | "round" | "sheet";

export interface Conflict {
  kind: EntryKind;
  id: string;
  /** What it contests, and what stands now, in words. */
  what: string;
  standing: string | null;
  proposed: string;
  enteredByName: string;
  enteredAt: Date;
}

async function teamNames(tx: Tx, ids: readonly string[]) {
  const rows = ids.length
    ? await tx
        .select({ id: competitionTeams.id, name: competitionTeams.name })
        .from(competitionTeams)
        .where(inArray(competitionTeams.id, [...ids]))
    : [];
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The entries waiting for the organisers' decision, oldest first, beside the entry that stands. */
export async function listConflicts(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  options: { lock?: boolean } = {},
): Promise<Conflict[]> {
  return db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging", {
      allowFinal: true,
      lock: options.lock,
    });
    const id = open.category.id;
    const runs = await tx.select().from(judgingRuns).where(eq(judgingRuns.categoryId, id));
    const rounds = await tx.select().from(bracketRounds).where(eq(bracketRounds.categoryId, id));
    const sheets = await tx.select().from(scoreSheets).where(eq(scoreSheets.categoryId, id));
    // A round in conflict is named by its match in words and the two teams in it.
    const bracket = rounds.some((r) => r.state === "conflict")
      ? ((await storedBracket(tx, open.category))?.bracket ?? null)
      : null;
    const matches = bracket
      ? [...bracket.rounds.flat(), ...(bracket.thirdPlace ? [bracket.thirdPlace] : [])]
      : [];
    const names = await teamNames(tx, [
      ...runs.map((r) => r.teamId),
      ...rounds.map((r) => r.winnerTeamId),
      ...sheets.map((s) => s.teamId),
      ...matches.flatMap((m) => [m.a, m.b]).filter((id): id is string => id !== null),
    ]);
    const team = (teamId: string) => `«${names.get(teamId) ?? "equipo"}»`;
    const matchText = (matchId: string) => {
      const match = matches.find((m) => m.id === matchId);
      const name = ofMatch(bracket ? matchName(bracket, matchId) : "un partido");
      return match?.a && match.b ? `${name} (${team(match.a)} contra ${team(match.b)})` : name;
    };
    const out: Conflict[] = [];
    for (const r of runs.filter((x) => x.state === "conflict")) {
      const standing = runs.find(
        (s) => s.state === "standing" && s.teamId === r.teamId && s.attempt === r.attempt,
      );
      out.push({
        kind: "run",
        id: r.id,
        what: `Vuelta ${r.attempt} de ${team(r.teamId)}`,
        standing: standing ? runText(standing) : null,
        proposed: runText(r),
        enteredByName: r.enteredByName,
        enteredAt: r.enteredAt,
      });
    }
    for (const r of rounds.filter((x) => x.state === "conflict")) {
      const standing = rounds.find(
        (s) => s.state === "standing" && s.matchKey === r.matchKey && s.round === r.round,
      );
      out.push({
        kind: "round",
        id: r.id,
        what: `Ronda ${r.round} ${matchText(r.matchKey)}`,
        standing: standing ? `ganó ${team(standing.winnerTeamId)}` : null,
        proposed: `ganó ${team(r.winnerTeamId)}`,
        enteredByName: r.enteredByName,
        enteredAt: r.enteredAt,
      });
    }
    for (const s of sheets.filter((x) => x.state === "conflict")) {
      const standing = sheets.find(
        (o) =>
          o.state === "standing" &&
          o.teamId === s.teamId &&
          s.judgeId !== null &&
          o.judgeId === s.judgeId,
      );
      out.push({
        kind: "sheet",
        id: s.id,
        what: `Hoja de ${s.judgeName} para ${team(s.teamId)}`,
        standing: standing ? sheetText(open.category.criteria, standing.points) : null,
        proposed: sheetText(open.category.criteria, s.points),
        enteredByName: s.enteredByName,
        enteredAt: s.enteredAt,
      });
    }
    return out.sort((a, b) => a.enteredAt.getTime() - b.enteredAt.getTime());
  });
}

const TABLES = { run: judgingRuns, round: bracketRounds, sheet: scoreSheets } as const;

/**
 * The organisers decide a conflict: 'aceptar' makes the second entry the one that counts (the first
 * is kept as replaced), 'mantener' keeps the first (the second is kept as rejected).
 */
export async function resolveConflict(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  fields: { kind: unknown; id: unknown; decision: unknown },
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging");
    const person = actor!;
    if (fields.decision !== "aceptar" && fields.decision !== "mantener")
      throw new JudgingError(JUDGING_MESSAGES.decision);
    const kind = fields.kind;
    if (kind !== "run" && kind !== "round" && kind !== "sheet")
      throw new JudgingError(JUDGING_MESSAGES.conflictNotFound, 404);
    const conflicts = await listConflicts(tx, person, open.category.id);
    const conflict = conflicts.find((c) => c.kind === kind && c.id === fields.id);
    if (!conflict) throw new JudgingError(JUDGING_MESSAGES.conflictNotFound, 404);
    const table = TABLES[kind];
    const decided = { decidedBy: person.id, decidedByName: nameOf(person), decidedAt: now };
    if (fields.decision === "aceptar") {
      const slot = await slotOf(tx, kind, conflict.id);
      await tx
        .update(table)
        .set({ state: "replaced", ...decided })
        .where(and(slot, eq(table.state, "standing")));
      await tx
        .update(table)
        .set({ state: "standing", ...decided })
        .where(eq(table.id, conflict.id));
    } else {
      await tx
        .update(table)
        .set({ state: "rejected", ...decided })
        .where(eq(table.id, conflict.id));
    }
    await audit(
      tx,
      person,
      open,
      "judging.resolve",
      `${fields.decision === "aceptar" ? "Aceptó" : "Rechazó"} la anotación de ${conflict.enteredByName} (${conflict.what}: ${conflict.proposed}; antes ${conflict.standing ?? "nada"}) en la categoría`,
    );
  });
}

/** The condition that finds the entries of the same run, round or sheet as entry `id`. */
async function slotOf(tx: Tx, kind: EntryKind, id: string) {
  if (kind === "run") {
    const [r] = await tx.select().from(judgingRuns).where(eq(judgingRuns.id, id));
    return and(
      eq(judgingRuns.categoryId, r!.categoryId),
      eq(judgingRuns.teamId, r!.teamId),
      eq(judgingRuns.attempt, r!.attempt),
    );
  }
  if (kind === "round") {
    const [r] = await tx.select().from(bracketRounds).where(eq(bracketRounds.id, id));
    return and(
      eq(bracketRounds.categoryId, r!.categoryId),
      eq(bracketRounds.matchKey, r!.matchKey),
      eq(bracketRounds.round, r!.round),
    );
  }
  const [s] = await tx.select().from(scoreSheets).where(eq(scoreSheets.id, id));
  // A sheet whose judge's account is gone is a slot of its own.
  if (s!.judgeId === null) return eq(scoreSheets.id, s!.id);
  return and(
    eq(scoreSheets.categoryId, s!.categoryId),
    eq(scoreSheets.teamId, s!.teamId),
    eq(scoreSheets.judgeId, s!.judgeId),
  );
}

// ——— Final ———

/** 'Marcar como final': from now on no entry, correction, draw or decision until reopened. */
export async function markFinal(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging", { allowFinal: true });
    if (open.category.finalAt !== null) throw new JudgingError(JUDGING_MESSAGES.alreadyFinal, 409);
    // Certificates go out on what is final: nothing may wait for a decision, and a bracket must
    // have its champion (and its third place, when it is played).
    if ((await listConflicts(tx, actor, open.category.id)).length > 0)
      throw new JudgingError(JUDGING_MESSAGES.finalWithConflicts, 409);
    if (open.category.format === "llaves") {
      const stored = await storedBracket(tx, open.category);
      if (
        stored &&
        (stored.bracket.champion === null ||
          (stored.bracket.thirdPlace !== null && stored.bracket.thirdPlace.winner === null))
      )
        throw new JudgingError(JUDGING_MESSAGES.finalBracketUnfinished, 409);
    }
    await tx
      .update(competitionCategories)
      .set({ finalAt: now, finalBy: actor!.id, finalByName: nameOf(actor!) })
      .where(eq(competitionCategories.id, open.category.id));
    await audit(
      tx,
      actor!,
      open,
      "category.final",
      "Marcó como finales los resultados de la categoría",
    );
  });
}

/** 'Reabrir': the results may change again. */
export async function reopenCategory(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  seen?: unknown,
): Promise<void> {
  // The final the organiser's screen showed, by when it was made (decision 064).
  const seenAt = typeof seen === "string" && seen.length <= 40 ? new Date(seen) : null;
  if (seen !== undefined && (!seenAt || Number.isNaN(seenAt.getTime())))
    throw new JudgingError(JUDGING_MESSAGES.finalSeenMissing);
  await db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "event.judging", { allowFinal: true });
    if (open.category.finalAt === null) throw new JudgingError(JUDGING_MESSAGES.notFinal, 409);
    if (seenAt && open.category.finalAt.getTime() !== seenAt.getTime())
      throw new JudgingError(finalChangedMeanwhile(open.category.finalByName ?? ""), 409);
    await tx
      .update(competitionCategories)
      .set({ finalAt: null, finalBy: null, finalByName: null })
      .where(eq(competitionCategories.id, open.category.id));
    await audit(tx, actor!, open, "category.reopen", "Reabrió los resultados de la categoría");
  });
}

/** The category's final mark and its bracket's draw, as the organisers' screen shows them. */
export async function judgingState(db: Db, categoryId: string) {
  const [state] = await db
    .select({ finalAt: competitionCategories.finalAt, finalBy: competitionCategories.finalByName })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  const [draw] = await db
    .select()
    .from(bracketDraws)
    .where(eq(bracketDraws.categoryId, categoryId));
  return { state, draw };
}

/**
 * A bracket's seeding as the organisers' screen lists it: the teams competing now, in the draw's
 * order where they were drawn, those not drawn after them, each with its name.
 */
export async function currentSeeding(db: Db, categoryId: string, drawOrder: readonly string[]) {
  const inPlay = await teamsInPlay(db, categoryId);
  const position = (teamId: string) => {
    const i = drawOrder.indexOf(teamId);
    return i === -1 ? drawOrder.length + inPlay.indexOf(teamId) : i;
  };
  const names = new Map(
    inPlay.length
      ? (
          await db
            .select({ id: competitionTeams.id, name: competitionTeams.name })
            .from(competitionTeams)
            .where(inArray(competitionTeams.id, inPlay))
        ).map((t) => [t.id, t.name])
      : [],
  );
  return [...inPlay]
    .sort((a, b) => position(a) - position(b))
    .map((teamId) => ({ teamId, team: names.get(teamId) ?? "" }));
}
