// What the judge's screen of one category shows (decision 059), for the person asking: the
// category and its rules, the teams in play, the runs entered (standing and in conflict), the
// bracket's seeds and rounds, and this person's own score sheets. Plain data (JSON), so that the
// phone keeps it for use without a connection and works out from it, with the pure rules, what the
// entries it has not sent yet change.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  bracketRounds,
  competitionCategories,
  competitionTeams,
  judgingRuns,
  scoreSheets,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { assertMay, NotAllowedError, roleFor, may } from "~/kernel/permissions";
import { JudgingError, type JudgingActor } from "./category.server";
import { storedBracket } from "./entries.server";
import { teamsInPlay } from "./eligible.server";
import { JUDGING_MESSAGES } from "./messages";
import { categoryResults, type CategoryResults } from "./results.server";

export interface JudgeBoard {
  /** When the server made it (ISO 8601): a phone keeps the newest. */
  generatedAt: string;
  category: CategoryResults["category"];
  /** Under which role this person enters (a judge's second entry is a conflict; an organiser's a correction). */
  role: "admin" | "organiser" | "judge";
  /** May draw the bracket and set the criteria (organisers and admins). */
  organiser: boolean;
  /** Whose score sheets `sheets` are. */
  judgeId: string;
  /** The teams that compete now (checked in, robot passed), by registration. */
  teams: Array<{ id: string; name: string; school: string }>;
  /** Every team the screen may name (a bracket keeps a team that stopped competing). */
  names: Record<string, string>;
  /** The ranking as the server computed it. */
  ranking: Array<{ teamId: string; place: number | null }>;
  /** Time trial: the runs that stand and those in conflict. */
  runs: Array<{
    teamId: string;
    attempt: number;
    timeMs: number | null;
    penaltyMs: number;
    conflict: boolean;
  }>;
  /** Bracket: its seeds and each match's rounds as they count; null before the draw. */
  bracket: { seeded: string[]; played: Record<string, string[]>; method: string } | null;
  /** Score sheet: this person's own sheets, standing or in conflict. */
  sheets: Array<{ teamId: string; points: Record<string, number>; conflict: boolean }>;
  /** A bracket with rounds keeps its draw; a category with sheets keeps its criteria. */
  locked: boolean;
}

/** The judge's screen of a category, for those who may enter its results; null when unknown. */
export async function judgeBoard(
  db: Db,
  actor: JudgingActor,
  categoryId: unknown,
  now: Date = new Date(),
): Promise<JudgeBoard | null> {
  const [category] = isUuid(categoryId)
    ? await db
        .select({ id: competitionCategories.id, eventId: competitionCategories.eventId })
        .from(competitionCategories)
        .where(eq(competitionCategories.id, categoryId))
    : [];
  if (!category) {
    // Someone without any role learns nothing about which categories exist.
    if (!actor || (!actor.isAdmin && (actor.grants?.length ?? 0) === 0))
      throw new NotAllowedError();
    return null;
  }
  const scope = { eventId: category.eventId, categoryId: category.id, now };
  const granted = assertMay(actor, "category.judge", scope);
  const person = actor!;
  const role = roleFor(actor, "event.judging", scope) ?? granted;
  const results = await categoryResults(db, category.id);
  if (!results) throw new JudgingError(JUDGING_MESSAGES.categoryNotFound, 404);
  const inPlay = await teamsInPlay(db, category.id);
  const names: Record<string, string> = {};
  const schools = new Map<string, string>();
  for (const row of results.rows) {
    names[row.teamId] = row.team;
    schools.set(row.teamId, row.school);
  }
  const missing = inPlay.filter((id) => !(id in names));
  if (missing.length > 0)
    for (const team of await db
      .select({ id: competitionTeams.id, name: competitionTeams.name })
      .from(competitionTeams)
      .where(inArray(competitionTeams.id, missing)))
      names[team.id] = team.name;
  const { format } = results.category;
  const runs =
    format === "tiempo"
      ? await db
          .select({
            teamId: judgingRuns.teamId,
            attempt: judgingRuns.attempt,
            timeMs: judgingRuns.timeMs,
            penaltyMs: judgingRuns.penaltyMs,
            state: judgingRuns.state,
          })
          .from(judgingRuns)
          .where(
            and(
              eq(judgingRuns.categoryId, category.id),
              inArray(judgingRuns.state, ["standing", "conflict"]),
            ),
          )
          .orderBy(asc(judgingRuns.attempt), asc(judgingRuns.enteredAt))
      : [];
  const sheets =
    format === "puntaje"
      ? await db
          .select({
            teamId: scoreSheets.teamId,
            points: scoreSheets.points,
            state: scoreSheets.state,
          })
          .from(scoreSheets)
          .where(
            and(
              eq(scoreSheets.categoryId, category.id),
              eq(scoreSheets.judgeId, person.id),
              inArray(scoreSheets.state, ["standing", "conflict"]),
            ),
          )
          .orderBy(asc(scoreSheets.enteredAt))
      : [];
  let bracket: JudgeBoard["bracket"] = null;
  const stored = format === "llaves" ? await storedBracket(db, results.category) : null;
  if (stored) {
    const played: Record<string, string[]> = {};
    const matches = [
      ...stored.bracket.rounds.flat(),
      ...(stored.bracket.thirdPlace ? [stored.bracket.thirdPlace] : []),
    ];
    for (const match of matches) if (match.rounds.length > 0) played[match.id] = match.rounds;
    bracket = { seeded: stored.seeded, played, method: stored.method };
  }
  const table = format === "llaves" ? bracketRounds : format === "puntaje" ? scoreSheets : null;
  const locked =
    table !== null &&
    (
      await db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.categoryId, category.id))
        .limit(1)
    ).length > 0;
  return {
    generatedAt: now.toISOString(),
    category: results.category,
    role: role === "admin" ? "admin" : role === "organiser" ? "organiser" : "judge",
    organiser: may(actor, "event.judging", scope),
    judgeId: person.id,
    teams: inPlay.map((id) => ({ id, name: names[id] ?? "", school: schools.get(id) ?? "" })),
    names,
    ranking: results.rows.map((r) => ({ teamId: r.teamId, place: r.place })),
    runs: runs.map(({ state, ...run }) => ({ ...run, conflict: state === "conflict" })),
    bracket,
    sheets: sheets.map(({ state, ...sheet }) => ({ ...sheet, conflict: state === "conflict" })),
    locked,
  };
}
