// One entry of the judge's screen (decision 059) as its form sends it, read the same way by the
// phone (before it queues the entry) and by the server (before the model checks it again): a run
// of a time trial, a round of a bracket's match, or this judge's score sheet. Times are typed in
// seconds as a stopwatch shows them ('12,345' or '12.345'); points with up to two decimals.
import { JUDGING_MESSAGES } from "./messages";
import { runProblem } from "./time-trial";
import { sheetProblem, type Criterion } from "./score-sheet";

/** The form's `intent` for each kind of entry. */
export const ENTRY_INTENTS = ["vuelta", "ronda", "hoja"] as const;
export type EntryIntent = (typeof ENTRY_INTENTS)[number];

export function isEntryIntent(value: unknown): value is EntryIntent {
  return typeof value === "string" && (ENTRY_INTENTS as readonly string[]).includes(value);
}

/** The longest value a field of an entry takes (a team's id is 36). */
export const ENTRY_FIELD_MAX = 64;

/** The fields of one entry as the form posts them (each once). */
export type EntryFields = Record<string, string>;

export type ParsedEntry =
  | {
      intent: "vuelta";
      teamId: string;
      attempt: number;
      timeMs: number | null;
      penaltyMs: number;
    }
  | { intent: "ronda"; matchId: string; round: number; winnerTeamId: string }
  | { intent: "hoja"; teamId: string; points: Record<string, number> };

/** Seconds as typed ('12,345', '12.345', '12') in milliseconds; null when it is not a time. */
export function secondsToMs(text: string): number | null {
  const match = /^(\d{1,4})(?:[.,](\d{1,3}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 1000 + Number((match[2] ?? "").padEnd(3, "0"));
}

/** Points as typed ('8', '7,5', '7.25') in hundredths; null when it is not a number of points. */
export function pointsToHundredths(text: string): number | null {
  const match = /^(\d{1,4})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Milliseconds as a judge types them back: '12,345'. */
export function msToSeconds(ms: number): string {
  return (ms / 1000).toLocaleString("es-BO", {
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
    useGrouping: false,
  });
}

export function pointsFieldName(criterion: Pick<Criterion, "id">): string {
  return `puntos-${criterion.id}`;
}

/**
 * How an organiser's screen names the run it showed as standing, sent with a correction
 * (`visto`): "12345+0", "nt+1000" for one that did not finish. A correction counts only over the
 * run it saw; over another (a second organiser corrected it meanwhile) it is a conflict.
 */
export function runSeenKey(run: { timeMs: number | null; penaltyMs: number }): string {
  return `${run.timeMs ?? "nt"}+${run.penaltyMs}`;
}

/** Whether a sent `visto` has runSeenKey's shape (anything else is refused). */
export function isRunSeenKey(value: string): boolean {
  return /^(nt|\d{1,7})\+\d{1,7}$/.test(value);
}

export class EntryProblem extends Error {
  override name = "EntryProblem";
}

/**
 * Reads one entry's fields for a category of `format` (with its runs counted and criteria), or
 * throws an EntryProblem with the Spanish message. Which team, match or winner is the server's
 * to check against what it has.
 */
export function parseEntry(
  intent: EntryIntent,
  fields: EntryFields,
  category: { format: string; attempts: number; criteria: readonly Criterion[] },
): ParsedEntry {
  const get = (name: string) => (fields[name] ?? "").trim();
  for (const value of Object.values(fields))
    if (value.length > ENTRY_FIELD_MAX) throw new EntryProblem(JUDGING_MESSAGES.entryMalformed);
  const expected = { vuelta: "tiempo", ronda: "llaves", hoja: "puntaje" }[intent];
  if (category.format !== expected) throw new EntryProblem(JUDGING_MESSAGES.wrongFormat);
  if (intent === "vuelta") {
    const teamId = get("equipo");
    if (!teamId) throw new EntryProblem(JUDGING_MESSAGES.teamMissing);
    const attempt = /^\d{1,2}$/.test(get("vuelta")) ? Number(get("vuelta")) : NaN;
    if (Number.isNaN(attempt)) throw new EntryProblem(JUDGING_MESSAGES.attemptMissing);
    const dnf = get("noTermino") !== "";
    let timeMs: number | null = null;
    if (!dnf) {
      if (get("tiempo") === "") throw new EntryProblem(JUDGING_MESSAGES.timeMissing);
      timeMs = secondsToMs(get("tiempo"));
      if (timeMs === null) throw new EntryProblem(JUDGING_MESSAGES.timeMalformed);
    }
    const penaltyMs = get("penalizacion") === "" ? 0 : secondsToMs(get("penalizacion"));
    if (penaltyMs === null) throw new EntryProblem(JUDGING_MESSAGES.penaltyMalformed);
    const problem = runProblem({ attempt, timeMs, penaltyMs }, category.attempts);
    if (problem) throw new EntryProblem(JUDGING_MESSAGES[problem]);
    return { intent, teamId, attempt, timeMs, penaltyMs };
  }
  if (intent === "ronda") {
    const matchId = get("partido");
    const round = /^[1-3]$/.test(get("ronda")) ? Number(get("ronda")) : NaN;
    const winnerTeamId = get("ganador");
    if (!/^(r\d{1,2}-\d{1,4}|tercer-puesto)$/.test(matchId) || Number.isNaN(round))
      throw new EntryProblem(JUDGING_MESSAGES.entryMalformed);
    if (!winnerTeamId) throw new EntryProblem(JUDGING_MESSAGES.winnerMissing);
    return { intent, matchId, round, winnerTeamId };
  }
  const teamId = get("equipo");
  if (!teamId) throw new EntryProblem(JUDGING_MESSAGES.teamMissing);
  if (category.criteria.length === 0) throw new EntryProblem(JUDGING_MESSAGES.noCriteria);
  const points: Record<string, number> = {};
  for (const criterion of category.criteria) {
    const typed = get(pointsFieldName(criterion));
    if (typed === "") throw new EntryProblem(JUDGING_MESSAGES.criterionMissing);
    const value = pointsToHundredths(typed);
    if (value === null) throw new EntryProblem(JUDGING_MESSAGES.pointsMalformed);
    points[criterion.id] = value;
  }
  const problem = sheetProblem(category.criteria, points);
  if (problem) throw new EntryProblem(JUDGING_MESSAGES[problem]);
  return { intent, teamId, points };
}

/** What the server answers to one entry (the data route's JSON, the page's action data). */
export type EntryReply =
  | { ok: true; outcome: "saved" | "same" | "conflict" | "corrected"; message: string }
  | { ok: false; message: string };

/** The Spanish words for what happened to an entry the server took. */
export function outcomeText(outcome: "saved" | "same" | "conflict" | "corrected"): string {
  return {
    saved: JUDGING_MESSAGES.outcomeSaved,
    same: JUDGING_MESSAGES.outcomeSame,
    conflict: JUDGING_MESSAGES.outcomeConflict,
    corrected: JUDGING_MESSAGES.outcomeCorrected,
  }[outcome];
}

/** A new entry's id, made on the phone so that sending it twice stores it once. */
export function newEntryId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  // Pages served over plain http on a local network have no randomUUID.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
