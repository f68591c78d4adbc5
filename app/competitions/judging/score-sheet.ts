// Score sheets (schools' challenges): each judge gives a team points per criterion; a team's score
// is the average of its judges' totals; the category's tie rule orders equal averages. Points are
// kept in hundredths so that averages compare exactly.
import { compareLists, placesOf } from "./places";
import type { TieRuleOf } from "./rules";

export const SHEET_LIMITS = { criteriaMax: 20, criterionNameMax: 80, pointsMax: 1000 } as const;

export interface Criterion {
  id: string;
  name: string;
  /** The most points a judge may give, a whole number. */
  max: number;
}

export interface Sheet {
  teamId: string;
  judgeId: string;
  /** Criterion id → points in hundredths (12.5 points: 1250). */
  points: Readonly<Record<string, number>>;
}

export function criteriaProblem(criteria: readonly Criterion[]): "criteriaInvalid" | null {
  const ids = new Set(criteria.map((c) => c.id));
  const fine =
    criteria.length >= 1 &&
    criteria.length <= SHEET_LIMITS.criteriaMax &&
    ids.size === criteria.length &&
    criteria.every(
      (c) =>
        c.name.trim().length > 0 &&
        c.name.length <= SHEET_LIMITS.criterionNameMax &&
        // A control character (NUL above all) cannot be stored or read back.
        ![...c.name].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127) &&
        Number.isInteger(c.max) &&
        c.max >= 1 &&
        c.max <= SHEET_LIMITS.pointsMax,
    );
  return fine ? null : "criteriaInvalid";
}

/** Why a judge's sheet cannot be entered, or null: every criterion scored, 0 … its maximum. */
export function sheetProblem(
  criteria: readonly Criterion[],
  points: Readonly<Record<string, unknown>>,
): "criterionMissing" | "scoreOutOfRange" | null {
  for (const criterion of criteria) {
    if (!Object.hasOwn(points, criterion.id)) return "criterionMissing";
  }
  for (const criterion of criteria) {
    const value = points[criterion.id];
    if (
      typeof value !== "number" ||
      !Number.isInteger(value) ||
      value < 0 ||
      value > criterion.max * 100
    )
      return "scoreOutOfRange";
  }
  return null;
}

export interface ScoreRow {
  teamId: string;
  place: number | null;
  /** The average of the judges' totals, in hundredths, rounded; null without a sheet. */
  average: number | null;
  /** Each criterion's average, in hundredths, rounded, in the criteria's order. */
  byCriterion: (number | null)[];
  judges: number;
}

export function rankScoreSheet(
  teamIds: readonly string[],
  criteria: readonly Criterion[],
  sheets: readonly Sheet[],
  tieRule: TieRuleOf<"puntaje">,
): ScoreRow[] {
  const rows = teamIds.map((teamId) => {
    const mine = sheets.filter((s) => s.teamId === teamId);
    const totals = mine.map((s) => criteria.reduce((sum, c) => sum + (s.points[c.id] ?? 0), 0));
    const judges = mine.length;
    // Compared exactly as fractions with the same denominator within a rule: sums × other's count.
    const sum = totals.reduce((a, b) => a + b, 0);
    const criterionSums = criteria.map((c) => mine.reduce((a, s) => a + (s.points[c.id] ?? 0), 0));
    return {
      teamId,
      judges,
      sum,
      criterionSums,
      bestTotal: totals.length ? Math.max(...totals) : 0,
      place: null as number | null,
      average: judges ? Math.round(sum / judges) : null,
      byCriterion: criterionSums.map((s) => (judges ? Math.round(s / judges) : null)),
    };
  });
  type Row = (typeof rows)[number];
  // a/na versus b/nb without division: a·nb versus b·na (higher is better).
  const byAverage = (a: number, na: number, b: number, nb: number) => b * na - a * nb;
  const compare = (a: Row, b: Row) => {
    const main = byAverage(a.sum, a.judges, b.sum, b.judges);
    if (main !== 0) return main;
    if (tieRule === "primer-criterio") {
      return compareLists(
        a.criterionSums.map((s) => s * b.judges),
        b.criterionSums.map((s) => s * a.judges),
        false,
      );
    }
    if (tieRule === "mejor-nota") return b.bestTotal - a.bestTotal;
    return 0;
  };
  const scored = rows.filter((r) => r.judges > 0).sort(compare);
  const placed = placesOf(scored, (a, b) => compare(a, b) === 0).map(({ place, entry }) => ({
    ...entry,
    place,
  }));
  return [...placed, ...rows.filter((r) => r.judges === 0)].map((r) => ({
    teamId: r.teamId,
    place: r.place,
    average: r.average,
    byCriterion: r.byCriterion,
    judges: r.judges,
  }));
}
