// Brackets (Robot Sumo): single elimination from the teams that may compete, in seed order (set by
// an organiser, or drawn from a recorded number so that anyone can draw it again and get the same
// order). When the number of teams is not a power of two, the best seeds pass the first round
// without a rival (byes). Each match is won at the best of three rounds. Pure: the server keeps
// the seeds and each round's winner; everything else is computed here.
import type { TieRuleOf } from "./rules";

/** A 32-bit number's stream of numbers in [0, 1): the Mulberry32 generator (public domain). */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The teams in the order drawn from `seed` (an integer 0 … 2³²−1): the same seed, the same order. */
export function drawOrder(teamIds: readonly string[], seed: number): string[] {
  const next = generator(seed);
  // The draw does not depend on the order the teams were listed in, only on who they are.
  const order = [...teamIds].sort();
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order;
}

export function isDrawSeed(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

/**
 * Which seed stands in each first-round slot of a bracket of `size` (a power of two): 1 and 2
 * meet only in the final, 1 to 4 only in the semifinals, and so on.
 */
export function seedSlots(size: number): number[] {
  let slots = [1];
  while (slots.length < size) {
    const width = slots.length * 2;
    slots = slots.flatMap((seed) => [seed, width + 1 - seed]);
  }
  return slots;
}

export const ROUNDS_TO_WIN = 2;

export interface Match {
  /** "r<round>-<index>", rounds from 1; the third-place match is "tercer-puesto". */
  id: string;
  round: number;
  /** Null: not yet known (its feeder match is not decided), or a bye. */
  a: string | null;
  b: string | null;
  /** One side has no rival: the other passes. */
  bye: boolean;
  /** Each round's winner, in order. */
  rounds: string[];
  winner: string | null;
  /** Both teams known and no winner yet: judges may enter its rounds. */
  due: boolean;
}

export interface BracketPlace {
  teamId: string;
  place: number | null;
}

export interface Bracket {
  rounds: Match[][];
  thirdPlace: Match | null;
  /** Each team's place: null until the match that decides it has a winner. */
  places: BracketPlace[];
  champion: string | null;
}

/** Spanish name of a round, counting from the final. */
export function roundName(round: number, totalRounds: number) {
  const fromEnd = totalRounds - round;
  if (fromEnd === 0) return "Final";
  if (fromEnd === 1) return "Semifinales";
  if (fromEnd === 2) return "Cuartos de final";
  if (fromEnd === 3) return "Octavos de final";
  return `Ronda ${round}`;
}

function winnerOf(a: string | null, b: string | null, rounds: readonly string[]) {
  for (const side of [a, b]) {
    if (side !== null && rounds.filter((w) => w === side).length >= ROUNDS_TO_WIN) return side;
  }
  return null;
}

function matchOf(
  id: string,
  round: number,
  a: string | null,
  b: string | null,
  bye: boolean,
  played: ReadonlyMap<string, readonly string[]>,
): Match {
  if (bye) {
    const through = a ?? b;
    return { id, round, a, b, bye, rounds: [], winner: through, due: false };
  }
  const rounds = a !== null && b !== null ? [...(played.get(id) ?? [])] : [];
  const winner = winnerOf(a, b, rounds);
  return { id, round, a, b, bye, rounds, winner, due: a !== null && b !== null && winner === null };
}

/**
 * The bracket of `seeded` (best seed first) with the rounds played so far (`played`: match id →
 * each round's winner, in order). `tieRule` says whether the semifinals' losers play for third.
 */
export function bracketOf(
  seeded: readonly string[],
  played: ReadonlyMap<string, readonly string[]>,
  tieRule: TieRuleOf<"llaves">,
): Bracket {
  const n = seeded.length;
  if (n < 2)
    return {
      rounds: [],
      thirdPlace: null,
      places: seeded.map((teamId) => ({ teamId, place: null })),
      champion: null,
    };
  let size = 2;
  while (size < n) size *= 2;
  const slots = seedSlots(size).map((seed) => (seed <= n ? (seeded[seed - 1] as string) : null));
  const rounds: Match[][] = [];
  let entrants: (string | null)[] = slots;
  // The first round: a slot without a team is a bye for its rival (never two byes: the byes go to
  // the best seeds, one each).
  let first = true;
  for (let round = 1; entrants.length > 1; round++) {
    const matches: Match[] = [];
    for (let i = 0; i < entrants.length; i += 2) {
      const a = entrants[i] ?? null;
      const b = entrants[i + 1] ?? null;
      const bye = first && (a === null || b === null);
      matches.push(matchOf(`r${round}-${i / 2}`, round, a, b, bye, played));
    }
    rounds.push(matches);
    entrants = matches.map((m) => m.winner);
    first = false;
  }
  const total = rounds.length;
  const final = rounds[total - 1]?.[0] as Match;
  const champion = final.winner;

  // Third place: the semifinals' losers, when both semifinals were played.
  const semis = total >= 2 ? (rounds[total - 2] as Match[]) : [];
  const loserOf = (m: Match) => (m.winner === null || m.bye ? null : m.winner === m.a ? m.b : m.a);
  const semiLosers = semis.map(loserOf);
  const thirdPlace =
    tieRule === "tercer-puesto" && semis.length === 2 && semis.every((m) => !m.bye)
      ? matchOf("tercer-puesto", total, semiLosers[0] ?? null, semiLosers[1] ?? null, false, played)
      : null;

  const place = new Map<string, number>();
  if (champion !== null) {
    place.set(champion, 1);
    const runnerUp = loserOf(final);
    if (runnerUp !== null) place.set(runnerUp, 2);
  }
  if (thirdPlace) {
    if (thirdPlace.winner !== null) {
      place.set(thirdPlace.winner, 3);
      place.set(
        thirdPlace.winner === thirdPlace.a ? (thirdPlace.b as string) : (thirdPlace.a as string),
        4,
      );
    }
  } else {
    for (const loser of semiLosers) if (loser !== null) place.set(loser, 3);
  }
  // Earlier rounds: the losers of a round of M matches share place M + 1 (quarterfinals: 5th).
  for (let r = 0; r < total - 2; r++) {
    const matches = rounds[r] as Match[];
    for (const m of matches) {
      const loser = loserOf(m);
      if (loser !== null) place.set(loser, matches.length + 1);
    }
  }
  return {
    rounds,
    thirdPlace,
    champion,
    places: seeded.map((teamId) => ({ teamId, place: place.get(teamId) ?? null })),
  };
}

export type RoundProblem =
  "matchNotFound" | "matchNotDue" | "matchIsBye" | "matchDecided" | "winnerNotInMatch";

/** Why `winner` cannot be entered as the next round's winner of match `matchId`, or null. */
export function roundProblem(
  bracket: Bracket,
  matchId: string,
  winner: string,
): RoundProblem | null {
  const match = [
    ...bracket.rounds.flat(),
    ...(bracket.thirdPlace ? [bracket.thirdPlace] : []),
  ].find((m) => m.id === matchId);
  if (!match) return "matchNotFound";
  if (match.bye) return "matchIsBye";
  if (match.winner !== null) return "matchDecided";
  if (!match.due) return "matchNotDue";
  if (winner !== match.a && winner !== match.b) return "winnerNotInMatch";
  return null;
}
