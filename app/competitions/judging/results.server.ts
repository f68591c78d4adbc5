// A category's results (decision 057): computed from the stored entries that stand, by the
// format's pure ranking (time-trial.ts, bracket.ts, score-sheet.ts), with only what anyone may
// read: the team, its school and city, its members as 'Ana Q.' — never an e-mail or a birth date.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  bracketRounds,
  competitionCategories,
  competitionTeams,
  events,
  judgingRuns,
  schools,
  scoreSheets,
  teamMembers,
  users,
  type CompetitionCategory,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { FORMATS, type Format } from "../categories";
import { publicName } from "../teams";
import type { Bracket } from "./bracket";
import { tieRuleOf } from "./category.server";
import { teamsInPlay } from "./eligible.server";
import { storedBracket } from "./entries.server";
import { TIE_RULES } from "./rules";
import { rankScoreSheet, type Criterion } from "./score-sheet";
import { rankTimeTrial } from "./time-trial";

export interface ResultRow {
  place: number | null;
  teamId: string;
  team: string;
  school: string;
  city: string;
  /** 'Ana Q.', in the order they joined. */
  members: string[];
  /** Time trial: the best total and each counted run's total (ms; null: not finished or not run). */
  best?: number | null;
  runs?: (number | null)[];
  /** Score sheet: the average and each criterion's, in hundredths, and how many judges scored. */
  average?: number | null;
  byCriterion?: (number | null)[];
  judges?: number;
}

export interface CategoryResults {
  category: {
    id: string;
    eventId: string;
    eventName: string;
    name: string;
    format: Format;
    formatLabel: string;
    tieRule: string;
    tieRuleLabel: string;
    tieRuleExplain: string;
    attempts: number;
    criteria: Criterion[];
    final: boolean;
  };
  rows: ResultRow[];
  /** Llaves: the bracket (team ids; names in `rows`), or null before the draw. */
  bracket: (Bracket & { method: string; seed: number | null }) | null;
}

async function publicTeams(db: Db, teamIds: readonly string[]) {
  if (teamIds.length === 0) return new Map<string, Omit<ResultRow, "place">>();
  const teams = await db
    .select({
      id: competitionTeams.id,
      name: competitionTeams.name,
      city: competitionTeams.city,
      school: schools.name,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .where(inArray(competitionTeams.id, [...teamIds]));
  const members = await db
    .select({
      teamId: teamMembers.teamId,
      name: sql<
        string | null
      >`coalesce(nullif(trim(${users.nombreCompleto}), ''), ${users.displayName})`,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, [...teamIds]))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  return new Map(
    teams.map((t) => [
      t.id,
      {
        teamId: t.id,
        team: t.name,
        school: t.school,
        city: t.city,
        members: members.filter((m) => m.teamId === t.id).map((m) => publicName(m.name)),
      },
    ]),
  );
}

/** The ranking of one category, for its results page; null for an unknown category. */
export async function categoryResults(
  db: Db,
  categoryId: unknown,
): Promise<CategoryResults | null> {
  if (!isUuid(categoryId)) return null;
  const [found] = await db
    .select({ category: competitionCategories, eventName: events.nombreEvento })
    .from(competitionCategories)
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(competitionCategories.id, categoryId));
  if (!found) return null;
  const { category } = found;
  const format = category.format as Format;
  const tieRule = tieRuleOf(category, format);
  const rule = (TIE_RULES[format] as Record<string, { label: string; explain: string }>)[tieRule]!;
  const inPlay = await teamsInPlay(db, category.id);
  // Final results stay as they were decided: a team with entries that stand keeps its place even
  // if it no longer competes now (rejected later, or a member's account deleted).
  if (category.finalAt !== null)
    for (const id of await teamsWithEntries(db, category.id))
      if (!inPlay.includes(id)) inPlay.push(id);
  const ranked = await rank(db, category, format, inPlay);
  const named = await publicTeams(db, ranked.teamIds);
  const rows = ranked.rows.flatMap((r) => {
    const team = named.get(r.teamId);
    return team ? [{ ...r, ...team }] : [];
  });
  return {
    category: {
      id: category.id,
      eventId: category.eventId,
      eventName: found.eventName,
      name: category.name,
      format,
      formatLabel: FORMATS[format],
      tieRule: tieRule as string,
      tieRuleLabel: rule.label,
      tieRuleExplain: rule.explain,
      attempts: category.attempts,
      criteria: category.criteria,
      final: category.finalAt !== null,
    },
    rows,
    bracket: ranked.bracket,
  };
}

/** The teams with a run or a score sheet that stands in the category. */
async function teamsWithEntries(db: Db, categoryId: string): Promise<string[]> {
  const runs = await db
    .selectDistinct({ teamId: judgingRuns.teamId })
    .from(judgingRuns)
    .where(and(eq(judgingRuns.categoryId, categoryId), eq(judgingRuns.state, "standing")));
  const sheets = await db
    .selectDistinct({ teamId: scoreSheets.teamId })
    .from(scoreSheets)
    .where(and(eq(scoreSheets.categoryId, categoryId), eq(scoreSheets.state, "standing")));
  return [...new Set([...runs, ...sheets].map((r) => r.teamId))];
}

async function rank(
  db: Db,
  category: CompetitionCategory,
  format: Format,
  inPlay: string[],
): Promise<{
  teamIds: string[];
  rows: Array<Omit<ResultRow, "team" | "school" | "city" | "members">>;
  bracket: CategoryResults["bracket"];
}> {
  if (format === "tiempo") {
    const runs = await db
      .select()
      .from(judgingRuns)
      .where(and(eq(judgingRuns.categoryId, category.id), eq(judgingRuns.state, "standing")));
    const rows = rankTimeTrial(inPlay, runs, {
      attempts: category.attempts,
      tieRule: tieRuleOf(category, "tiempo"),
    });
    return {
      teamIds: inPlay,
      rows: rows.map((r) => ({ place: r.place, teamId: r.teamId, best: r.best, runs: r.runs })),
      bracket: null,
    };
  }
  if (format === "puntaje") {
    const sheets = await db
      .select()
      .from(scoreSheets)
      .where(and(eq(scoreSheets.categoryId, category.id), eq(scoreSheets.state, "standing")));
    const rows = rankScoreSheet(
      inPlay,
      category.criteria,
      // A deleted judge's sheet still counts as one judge's.
      sheets.map((s) => ({ teamId: s.teamId, judgeId: s.judgeId ?? s.id, points: s.points })),
      tieRuleOf(category, "puntaje"),
    );
    return {
      teamIds: inPlay,
      rows: rows.map((r) => ({
        place: r.place,
        teamId: r.teamId,
        average: r.average,
        byCriterion: r.byCriterion,
        judges: r.judges,
      })),
      bracket: null,
    };
  }
  const stored = await storedBracket(db, category);
  if (!stored)
    return {
      teamIds: inPlay,
      rows: inPlay.map((teamId) => ({ place: null, teamId })),
      bracket: null,
    };
  // Placed teams first (by place), then the rest in seed order.
  const seedOf = new Map(stored.seeded.map((id, i) => [id, i]));
  const rows = [...stored.bracket.places].sort(
    (a, b) =>
      (a.place ?? Infinity) - (b.place ?? Infinity) ||
      (seedOf.get(a.teamId) ?? 0) - (seedOf.get(b.teamId) ?? 0),
  );
  return {
    teamIds: stored.seeded,
    rows: rows.map((r) => ({ place: r.place, teamId: r.teamId })),
    bracket: { ...stored.bracket, method: stored.method, seed: stored.seed },
  };
}

/** A member's teams' places (their data download): each category where one of their teams is. */
export async function resultsOfMember(db: Db, userId: string) {
  const mine = await db
    .select({ teamId: teamMembers.teamId, categoryId: teamMembers.categoryId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  const out: Array<{
    equipo: string;
    categoria: string;
    evento: string;
    puesto: number | null;
    final: boolean;
  }> = [];
  for (const { teamId, categoryId } of mine) {
    const results = await categoryResults(db, categoryId);
    const row = results?.rows.find((r) => r.teamId === teamId);
    if (!results || !row) continue;
    out.push({
      equipo: row.team,
      categoria: results.category.name,
      evento: results.category.eventName,
      puesto: row.place,
      final: results.category.final,
    });
  }
  return out;
}

/** What a member entered as a judge or organiser on competition day (their data download). */
export async function entriesByMember(db: Db, userId: string) {
  const category = competitionCategories;
  const runs = await db
    .select({
      categoria: category.name,
      estado: judgingRuns.state,
      anotadoEl: judgingRuns.enteredAt,
    })
    .from(judgingRuns)
    .innerJoin(category, eq(category.id, judgingRuns.categoryId))
    .where(eq(judgingRuns.enteredBy, userId))
    .orderBy(asc(judgingRuns.enteredAt));
  const rounds = await db
    .select({
      categoria: category.name,
      estado: bracketRounds.state,
      anotadoEl: bracketRounds.enteredAt,
    })
    .from(bracketRounds)
    .innerJoin(category, eq(category.id, bracketRounds.categoryId))
    .where(eq(bracketRounds.enteredBy, userId))
    .orderBy(asc(bracketRounds.enteredAt));
  const sheets = await db
    .select({
      categoria: category.name,
      estado: scoreSheets.state,
      anotadoEl: scoreSheets.enteredAt,
    })
    .from(scoreSheets)
    .innerJoin(category, eq(category.id, scoreSheets.categoryId))
    .where(eq(scoreSheets.enteredBy, userId))
    .orderBy(asc(scoreSheets.enteredAt));
  const rows = [
    ...runs.map((r) => ({ tipo: "vuelta", ...r })),
    ...rounds.map((r) => ({ tipo: "ronda", ...r })),
    ...sheets.map((r) => ({ tipo: "hoja de puntaje", ...r })),
  ];
  return rows
    .sort((a, b) => a.anotadoEl.getTime() - b.anotadoEl.getTime())
    .map((r) => ({
      ...r,
      estado: ENTRY_STATES[r.estado as keyof typeof ENTRY_STATES] ?? r.estado,
      anotadoEl: r.anotadoEl.toISOString(),
    }));
}

/** An entry's state in words (decision 057). */
const ENTRY_STATES = {
  standing: "cuenta",
  conflict: "en conflicto, por decidir",
  replaced: "reemplazada",
  rejected: "rechazada",
} as const;

/**
 * A competition's results page: the event's name and every category's results in the categories'
 * order; null for an id that is not an event's, or an event without categories.
 */
export async function competitionResults(
  db: Db,
  eventId: unknown,
): Promise<{ event: { id: string; name: string }; results: CategoryResults[] } | null> {
  if (!isUuid(eventId)) return null;
  const [event] = await db
    .select({ id: events.id, name: events.nombreEvento })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const categories = await db
    .select({ id: competitionCategories.id })
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, event.id))
    .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt));
  if (categories.length === 0) return null;
  const results: CategoryResults[] = [];
  for (const c of categories) {
    const one = await categoryResults(db, c.id);
    if (one) results.push(one);
  }
  return { event, results };
}
