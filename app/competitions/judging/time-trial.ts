// Time trials (line followers, Micromouse): each team runs up to N times; the best total (time plus
// penalties) of those N counts; the category's tie rule orders equal bests. Pure: the server
// computes the ranking from the stored runs, and the judge's screen checks an entry before sending.
import { compareLists, placesOf } from "./places";
import type { TieRuleOf } from "./rules";

export const RUN_LIMITS = {
  /** An hour: longer is a typing mistake, not a run. */
  timeMaxMs: 60 * 60 * 1000,
  penaltyMaxMs: 10 * 60 * 1000,
  attemptsMax: 10,
} as const;

export interface Run {
  teamId: string;
  /** 1 … the category's number of runs. */
  attempt: number;
  /** Null: the robot did not finish (it counts as no time). */
  timeMs: number | null;
  penaltyMs: number;
}

export type RunProblem = "timeOutOfRange" | "penaltyOutOfRange" | "attemptOutOfRange";

/** Why a run cannot be entered, or null. `attempts`: how many runs the category counts. */
export function runProblem(run: Omit<Run, "teamId">, attempts: number): RunProblem | null {
  if (!Number.isInteger(run.attempt) || run.attempt < 1 || run.attempt > attempts)
    return "attemptOutOfRange";
  if (
    run.timeMs !== null &&
    (!Number.isInteger(run.timeMs) || run.timeMs < 1 || run.timeMs > RUN_LIMITS.timeMaxMs)
  )
    return "timeOutOfRange";
  if (
    !Number.isInteger(run.penaltyMs) ||
    run.penaltyMs < 0 ||
    run.penaltyMs > RUN_LIMITS.penaltyMaxMs
  )
    return "penaltyOutOfRange";
  return null;
}

/** A run's total, or null when the robot did not finish. */
export function runTotal(run: Pick<Run, "timeMs" | "penaltyMs">): number | null {
  return run.timeMs === null ? null : run.timeMs + run.penaltyMs;
}

export interface TimeTrialRow {
  teamId: string;
  /** Null: no finished run yet (listed last, without a place). */
  place: number | null;
  /** The best total, in milliseconds. */
  best: number | null;
  /** The penalties of the run that gave the best total (the fewest, among equal bests). */
  bestPenaltyMs: number | null;
  /** Each counted run's total in attempt order (null: did not finish or not yet run). */
  runs: (number | null)[];
}

export function rankTimeTrial(
  teamIds: readonly string[],
  runs: readonly Run[],
  options: { attempts: number; tieRule: TieRuleOf<"tiempo"> },
): TimeTrialRow[] {
  const rows = teamIds.map((teamId): TimeTrialRow & { finished: number[] } => {
    const mine = runs.filter(
      (r) => r.teamId === teamId && r.attempt >= 1 && r.attempt <= options.attempts,
    );
    const byAttempt = Array.from({ length: options.attempts }, (_, i) => {
      const run = mine.find((r) => r.attempt === i + 1);
      return run ? runTotal(run) : null;
    });
    const finished = byAttempt.filter((t): t is number => t !== null).sort((a, b) => a - b);
    const best = finished[0] ?? null;
    const bestPenaltyMs =
      best === null
        ? null
        : Math.min(...mine.filter((r) => runTotal(r) === best).map((r) => r.penaltyMs));
    return { teamId, place: null, best, bestPenaltyMs, runs: byAttempt, finished };
  });
  const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
    const byBest = (a.best as number) - (b.best as number);
    if (byBest !== 0) return byBest;
    if (options.tieRule === "segundo-tiempo")
      return compareLists(a.finished.slice(1), b.finished.slice(1), true);
    if (options.tieRule === "menos-penalizaciones")
      return (a.bestPenaltyMs as number) - (b.bestPenaltyMs as number);
    return 0;
  };
  const timed = rows.filter((r) => r.best !== null).sort(compare);
  const placed = placesOf(timed, (a, b) => compare(a, b) === 0).map(({ place, entry }) => ({
    ...entry,
    place,
  }));
  const untimed = rows.filter((r) => r.best === null);
  return [...placed, ...untimed].map(({ finished: _finished, ...row }) => row);
}
