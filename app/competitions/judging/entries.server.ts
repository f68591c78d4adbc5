// What judges enter on competition day (decision 057): a time trial's runs, a bracket's rounds and
// score sheets, each checked by the format's pure rules (time-trial.ts, bracket.ts,
// score-sheet.ts) before it is stored as typed. A resend with the same client entry id changes
// nothing; a different second entry for the same run, round or sheet is kept as a conflict for the
// organisers (the first still counts); an organiser's or admin's different entry is a correction,
// written to the audit log with who made it.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  bracketDraws,
  bracketRounds,
  competitionTeams,
  judgingRuns,
  scoreSheets,
  type CompetitionCategory,
} from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { bracketOf, roundName, type Bracket } from "./bracket";
import {
  clientEntryIdOf,
  JudgingError,
  nameOf,
  openCategory,
  outcomeFor,
  secondsText,
  tieRuleOf,
  wholeNumberOf,
  type EntryOutcome,
  type JudgingActor,
  type OpenCategory,
} from "./category.server";
import { teamsInPlay } from "./eligible.server";
import { runSeenKey } from "./judge-entry";
import { JUDGING_MESSAGES } from "./messages";
import { sheetProblem, type Criterion } from "./score-sheet";
import { runProblem } from "./time-trial";

export interface EntryResult {
  outcome: EntryOutcome;
  /** The stored row (for "same", the one already there). */
  id: string;
}

async function teamInPlay(tx: Tx, categoryId: string, teamId: unknown): Promise<string> {
  if (!isUuid(teamId) || !(await teamsInPlay(tx, categoryId)).includes(teamId))
    throw new JudgingError(JUDGING_MESSAGES.teamNotInCategory, 409);
  return teamId;
}

async function teamNameOf(tx: Tx, teamId: string): Promise<string> {
  const [row] = await tx
    .select({ name: competitionTeams.name })
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  return row?.name ?? "equipo";
}

async function auditCorrection(
  tx: Tx,
  actor: NonNullable<JudgingActor>,
  open: OpenCategory,
  summary: string,
) {
  await recordAudit(tx, {
    actor,
    role: open.role,
    action: "competition.judging.correct",
    itemKind: "category",
    itemId: open.category.id,
    summary: `${summary} en «${open.category.name}» de «${open.eventName}»`,
  });
}

const replaced = (actor: NonNullable<JudgingActor>, now: Date) => ({
  state: "replaced",
  decidedBy: actor.id,
  decidedByName: nameOf(actor),
  decidedAt: now,
});

// ——— Time trial ———

export interface RunFields {
  teamId: unknown;
  attempt: unknown;
  /** Milliseconds; null or "" when the robot did not finish. */
  timeMs: unknown;
  penaltyMs?: unknown;
  clientEntryId?: unknown;
  /** True when the screen showed no entry for this run as it was made (see outcomeFor). */
  unseen?: boolean;
  /** The standing run the screen showed (runSeenKey), when it showed one. */
  seen?: string;
}

/** A run of a time trial: its team (in play), attempt, time and penalties. */
export async function enterRun(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  fields: RunFields,
  now: Date = new Date(),
): Promise<EntryResult> {
  return db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "category.judge", { format: "tiempo" });
    const person = actor!;
    const { category } = open;
    const clientEntryId = clientEntryIdOf(fields.clientEntryId);
    const attempt = wholeNumberOf(fields.attempt);
    const timeMs =
      fields.timeMs === null || fields.timeMs === "" ? null : wholeNumberOf(fields.timeMs);
    const penaltyMs =
      fields.penaltyMs === undefined || fields.penaltyMs === ""
        ? 0
        : wholeNumberOf(fields.penaltyMs);
    if (Number.isNaN(attempt) || Number.isNaN(timeMs) || Number.isNaN(penaltyMs))
      throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    const problem = runProblem({ attempt, timeMs, penaltyMs }, category.attempts);
    if (problem) throw new JudgingError(JUDGING_MESSAGES[problem]);
    const teamId = await teamInPlay(tx, category.id, fields.teamId);
    const same = (r: {
      teamId: string;
      attempt: number;
      timeMs: number | null;
      penaltyMs: number;
    }) =>
      r.teamId === teamId &&
      r.attempt === attempt &&
      r.timeMs === timeMs &&
      r.penaltyMs === penaltyMs;

    if (clientEntryId) {
      const [sent] = await tx
        .select()
        .from(judgingRuns)
        .where(
          and(
            eq(judgingRuns.categoryId, category.id),
            eq(judgingRuns.clientEntryId, clientEntryId),
          ),
        );
      if (sent) {
        if (!same(sent)) throw new JudgingError(JUDGING_MESSAGES.entryIdReused, 409);
        // A resend says what became of the first: still in conflict, or taken.
        return { outcome: sent.state === "conflict" ? "conflict" : "same", id: sent.id };
      }
    }
    const [standing] = await tx
      .select()
      .from(judgingRuns)
      .where(
        and(
          eq(judgingRuns.categoryId, category.id),
          eq(judgingRuns.teamId, teamId),
          eq(judgingRuns.attempt, attempt),
          eq(judgingRuns.state, "standing"),
        ),
      );
    // Made over another run than the one standing now (corrected meanwhile): not seen either.
    const seenOther =
      standing !== undefined && fields.seen !== undefined && fields.seen !== runSeenKey(standing);
    const outcome = outcomeFor(
      open.role,
      standing !== undefined,
      standing ? same(standing) : false,
      fields.unseen === true || seenOther,
    );
    if (outcome === "same") return { outcome, id: standing!.id };
    if (outcome === "corrected")
      await tx
        .update(judgingRuns)
        .set(replaced(person, now))
        .where(eq(judgingRuns.id, standing!.id));
    const [row] = await tx
      .insert(judgingRuns)
      .values({
        categoryId: category.id,
        teamId,
        attempt,
        timeMs,
        penaltyMs,
        state: outcome === "conflict" ? "conflict" : "standing",
        enteredBy: person.id,
        enteredByName: nameOf(person),
        enteredAt: now,
        clientEntryId,
      })
      .returning({ id: judgingRuns.id });
    if (outcome === "corrected")
      await auditCorrection(
        tx,
        person,
        open,
        `Corrigió la vuelta ${attempt} de «${await teamNameOf(tx, teamId)}»: ${runText(standing!)} → ${runText({ timeMs, penaltyMs })}`,
      );
    return { outcome, id: row!.id };
  });
}

export function runText(run: { timeMs: number | null; penaltyMs: number }): string {
  return run.penaltyMs > 0
    ? `${secondsText(run.timeMs)} + ${secondsText(run.penaltyMs)} de penalización`
    : secondsText(run.timeMs);
}

// ——— Bracket ———

/** A bracket as its stored draw and standing rounds make it; null before a draw. */
export async function storedBracket(
  db: Db,
  category: Pick<CompetitionCategory, "id" | "tieRule">,
): Promise<{ seeded: string[]; bracket: Bracket; method: string; seed: number | null } | null> {
  const [draw] = await db
    .select()
    .from(bracketDraws)
    .where(eq(bracketDraws.categoryId, category.id));
  if (!draw) return null;
  const rounds = await db
    .select({
      matchKey: bracketRounds.matchKey,
      round: bracketRounds.round,
      winner: bracketRounds.winnerTeamId,
    })
    .from(bracketRounds)
    .where(and(eq(bracketRounds.categoryId, category.id), eq(bracketRounds.state, "standing")))
    .orderBy(asc(bracketRounds.matchKey), asc(bracketRounds.round));
  const played = new Map<string, string[]>();
  for (const r of rounds) {
    const list = played.get(r.matchKey) ?? [];
    // Rounds count in order, up to the first missing one.
    if (list.length === r.round - 1) list.push(r.winner);
    played.set(r.matchKey, list);
  }
  return {
    seeded: draw.teamIds,
    bracket: bracketOf(draw.teamIds, played, tieRuleOf(category, "llaves")),
    method: draw.method,
    seed: draw.seed,
  };
}

export interface RoundFields {
  /** The match: "r1-0", "r2-1", "tercer-puesto". */
  matchId: unknown;
  /** 1, 2 or 3. */
  round: unknown;
  winnerTeamId: unknown;
  clientEntryId?: unknown;
  /** True when the screen showed no winner for this round as it was made (see outcomeFor). */
  unseen?: boolean;
}

/** 'de' before a match in words, contracted as Spanish does: 'del partido por el tercer puesto'. */
export function ofMatch(name: string): string {
  return name.startsWith("el ") ? `del ${name.slice(3)}` : `de ${name}`;
}

/** A match in words: 'un partido de semifinales', 'la final', 'el partido por el tercer puesto'. */
export function matchName(bracket: Bracket, matchId: string): string {
  if (matchId === "tercer-puesto") return "el partido por el tercer puesto";
  const match = bracket.rounds.flat().find((m) => m.id === matchId);
  if (!match) return "un partido";
  if (match.round === bracket.rounds.length) return "la final";
  return `un partido de ${roundName(match.round, bracket.rounds.length).toLowerCase()}`;
}

/** The winner of one round of a bracket's match (best of three). */
export async function enterRound(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  fields: RoundFields,
  now: Date = new Date(),
): Promise<EntryResult> {
  return db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "category.judge", { format: "llaves" });
    const person = actor!;
    const { category } = open;
    const clientEntryId = clientEntryIdOf(fields.clientEntryId);
    const round = wholeNumberOf(fields.round);
    const matchId = fields.matchId;
    if (typeof matchId !== "string" || matchId.length > 20 || !(round >= 1 && round <= 3))
      throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    const stored = await storedBracket(tx, category);
    if (!stored) throw new JudgingError(JUDGING_MESSAGES.noDraw, 409);
    const winner = await teamInPlay(tx, category.id, fields.winnerTeamId);
    const { bracket } = stored;
    const match = [
      ...bracket.rounds.flat(),
      ...(bracket.thirdPlace ? [bracket.thirdPlace] : []),
    ].find((m) => m.id === matchId);
    if (!match) throw new JudgingError(JUDGING_MESSAGES.matchNotFound, 404);
    const same = (r: { matchKey: string; round: number; winnerTeamId: string }) =>
      r.matchKey === matchId && r.round === round && r.winnerTeamId === winner;

    if (clientEntryId) {
      const [sent] = await tx
        .select()
        .from(bracketRounds)
        .where(
          and(
            eq(bracketRounds.categoryId, category.id),
            eq(bracketRounds.clientEntryId, clientEntryId),
          ),
        );
      if (sent) {
        if (!same(sent)) throw new JudgingError(JUDGING_MESSAGES.entryIdReused, 409);
        // A resend says what became of the first: still in conflict, or taken.
        return { outcome: sent.state === "conflict" ? "conflict" : "same", id: sent.id };
      }
    }
    const [standing] = await tx
      .select()
      .from(bracketRounds)
      .where(
        and(
          eq(bracketRounds.categoryId, category.id),
          eq(bracketRounds.matchKey, matchId),
          eq(bracketRounds.round, round),
          eq(bracketRounds.state, "standing"),
        ),
      );
    if (standing) {
      // A second entry for a round already entered: it must at least name one of the two teams.
      if (winner !== match.a && winner !== match.b)
        throw new JudgingError(JUDGING_MESSAGES.winnerNotInMatch);
    } else {
      if (match.bye) throw new JudgingError(JUDGING_MESSAGES.matchIsBye, 409);
      if (match.winner !== null) throw new JudgingError(JUDGING_MESSAGES.matchDecided, 409);
      if (!match.due) throw new JudgingError(JUDGING_MESSAGES.matchNotDue, 409);
      if (round !== match.rounds.length + 1)
        throw new JudgingError(JUDGING_MESSAGES.roundNotDue, 409);
      if (winner !== match.a && winner !== match.b)
        throw new JudgingError(JUDGING_MESSAGES.winnerNotInMatch);
    }
    const outcome = outcomeFor(
      open.role,
      standing !== undefined,
      standing ? same(standing) : false,
      fields.unseen === true,
    );
    if (outcome === "same") return { outcome, id: standing!.id };
    if (outcome === "corrected")
      await tx
        .update(bracketRounds)
        .set(replaced(person, now))
        .where(eq(bracketRounds.id, standing!.id));
    const [row] = await tx
      .insert(bracketRounds)
      .values({
        categoryId: category.id,
        matchKey: matchId,
        round,
        winnerTeamId: winner,
        state: outcome === "conflict" ? "conflict" : "standing",
        enteredBy: person.id,
        enteredByName: nameOf(person),
        enteredAt: now,
        clientEntryId,
      })
      .returning({ id: bracketRounds.id });
    if (outcome === "corrected")
      await auditCorrection(
        tx,
        person,
        open,
        `Corrigió la ronda ${round} ${ofMatch(matchName(bracket, matchId))}: ganó «${await teamNameOf(tx, winner)}» (antes «${await teamNameOf(tx, standing!.winnerTeamId)}»)`,
      );
    return { outcome, id: row!.id };
  });
}

// ——— Score sheet ———

export interface SheetFields {
  teamId: unknown;
  /** Criterion id → points in hundredths. */
  points: unknown;
  /** Whose sheet: the judge entering it; organisers and admins may name a judge's sheet to correct. */
  judgeId?: unknown;
  clientEntryId?: unknown;
}

function samePoints(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** One judge's sheet for one team: points for every criterion of the category. */
export async function enterScoreSheet(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  fields: SheetFields,
  now: Date = new Date(),
): Promise<EntryResult> {
  return db.transaction(async (tx) => {
    const open = await openCategory(tx, actor, categoryId, "category.judge", { format: "puntaje" });
    const person = actor!;
    const { category } = open;
    const criteria: Criterion[] = category.criteria;
    if (criteria.length === 0) throw new JudgingError(JUDGING_MESSAGES.noCriteria, 409);
    const clientEntryId = clientEntryIdOf(fields.clientEntryId);
    const raw = fields.points;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    const problem = sheetProblem(criteria, raw as Record<string, unknown>);
    if (problem) throw new JudgingError(JUDGING_MESSAGES[problem]);
    // Only the category's criteria are kept (extra keys are dropped).
    const points = Object.fromEntries(
      criteria.map((c) => [c.id, (raw as Record<string, number>)[c.id] as number]),
    );
    const typedJudge = fields.judgeId;
    let judgeId = person.id;
    if (
      typedJudge !== undefined &&
      typedJudge !== null &&
      typedJudge !== "" &&
      typedJudge !== person.id
    ) {
      if (open.role === "judge") throw new JudgingError(JUDGING_MESSAGES.judgeNotOwn, 403);
      if (!isUuid(typedJudge)) throw new JudgingError(JUDGING_MESSAGES.sheetNotFound, 404);
      judgeId = typedJudge;
    }
    const teamId = await teamInPlay(tx, category.id, fields.teamId);
    const same = (r: { teamId: string; judgeId: string | null; points: Record<string, number> }) =>
      r.teamId === teamId && r.judgeId === judgeId && samePoints(r.points, points);

    if (clientEntryId) {
      const [sent] = await tx
        .select()
        .from(scoreSheets)
        .where(
          and(
            eq(scoreSheets.categoryId, category.id),
            eq(scoreSheets.clientEntryId, clientEntryId),
          ),
        );
      if (sent) {
        if (!same(sent)) throw new JudgingError(JUDGING_MESSAGES.entryIdReused, 409);
        // A resend says what became of the first: still in conflict, or taken.
        return { outcome: sent.state === "conflict" ? "conflict" : "same", id: sent.id };
      }
    }
    const [standing] = await tx
      .select()
      .from(scoreSheets)
      .where(
        and(
          eq(scoreSheets.categoryId, category.id),
          eq(scoreSheets.teamId, teamId),
          eq(scoreSheets.judgeId, judgeId),
          eq(scoreSheets.state, "standing"),
        ),
      );
    // Someone else's sheet is only ever corrected, never started, by an organiser.
    if (judgeId !== person.id && !standing)
      throw new JudgingError(JUDGING_MESSAGES.sheetNotFound, 404);
    const outcome = outcomeFor(
      open.role,
      standing !== undefined,
      standing ? same(standing) : false,
    );
    if (outcome === "same") return { outcome, id: standing!.id };
    if (outcome === "corrected")
      await tx
        .update(scoreSheets)
        .set(replaced(person, now))
        .where(eq(scoreSheets.id, standing!.id));
    const [row] = await tx
      .insert(scoreSheets)
      .values({
        categoryId: category.id,
        teamId,
        judgeId,
        judgeName: standing ? standing.judgeName : nameOf(person),
        points,
        state: outcome === "conflict" ? "conflict" : "standing",
        enteredBy: person.id,
        enteredByName: nameOf(person),
        enteredAt: now,
        clientEntryId,
      })
      .returning({ id: scoreSheets.id });
    if (outcome === "corrected")
      await auditCorrection(
        tx,
        person,
        open,
        `Corrigió la hoja de puntaje de ${standing!.judgeName} para «${await teamNameOf(tx, teamId)}»: ${sheetText(criteria, standing!.points)} → ${sheetText(criteria, points)}`,
      );
    return { outcome, id: row!.id };
  });
}

export function sheetText(
  criteria: readonly Criterion[],
  points: Readonly<Record<string, number>>,
) {
  return criteria
    .map((c) => `${c.name} ${((points[c.id] ?? 0) / 100).toLocaleString("es-BO")}`)
    .join(", ");
}

/** Whether a category has any score sheet (then its criteria stay as they are). */
export async function hasSheets(tx: Tx | Db, categoryId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: scoreSheets.id })
    .from(scoreSheets)
    .where(eq(scoreSheets.categoryId, categoryId))
    .limit(1);
  return row !== undefined;
}

/** Whether a bracket has any round entered (then its draw stays as it is). */
export async function hasRounds(tx: Tx | Db, categoryId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: bracketRounds.id })
    .from(bracketRounds)
    .where(inArray(bracketRounds.categoryId, [categoryId]))
    .limit(1);
  return row !== undefined;
}
