// The rankings of issue 39's three formats: time trials, brackets and score sheets, with each tie rule.
import { describe, expect, test } from "vitest";
import {
  bracketOf,
  drawOrder,
  roundName,
  roundProblem,
  seedSlots,
  type Bracket,
} from "~/competitions/judging/bracket";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { placesOf } from "~/competitions/judging/places";
import { DEFAULT_TIE_RULE, isTieRule, TIE_RULES } from "~/competitions/judging/rules";
import {
  criteriaProblem,
  rankScoreSheet,
  sheetProblem,
  type Sheet,
} from "~/competitions/judging/score-sheet";
import { rankTimeTrial, runProblem, type Run } from "~/competitions/judging/time-trial";

const teams = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

describe("places", () => {
  test("tied neighbours share a place and the next skips (1, 1, 3)", () => {
    const placed = placesOf([10, 10, 12, 13, 13, 13, 20], (a, b) => a === b);
    expect(placed.map((p) => p.place)).toEqual([1, 1, 3, 4, 4, 4, 7]);
  });
});

describe("time trial", () => {
  const run = (teamId: string, attempt: number, timeMs: number | null, penaltyMs = 0): Run => ({
    teamId,
    attempt,
    timeMs,
    penaltyMs,
  });

  test("the best total of the counted runs wins; later runs do not count; no finished run, no place", () => {
    const rows = rankTimeTrial(
      ["a", "b", "c", "d"],
      [
        run("a", 1, 12_000, 2_000), // 14 s
        run("a", 2, 13_500), // 13.5 s
        run("b", 1, 13_000),
        run("b", 3, 9_000), // a third run when the category counts two: ignored
        run("c", 1, null),
        run("d", 2, 15_000, 500),
      ],
      { attempts: 2, tieRule: "compartido" },
    );
    expect(rows.map((r) => [r.teamId, r.place, r.best])).toEqual([
      ["b", 1, 13_000],
      ["a", 2, 13_500],
      ["d", 3, 15_500],
      ["c", null, null],
    ]);
    expect(rows.find((r) => r.teamId === "a")?.runs).toEqual([14_000, 13_500]);
    expect(rows.find((r) => r.teamId === "d")?.runs).toEqual([null, 15_500]);
  });

  const tied = [
    run("a", 1, 10_000, 1_000), // best 11 s with 1 s of penalties
    run("a", 2, 12_000),
    run("b", 1, 11_000), // best 11 s clean
    run("b", 2, 13_000),
    run("c", 1, 11_000), // best 11 s clean, no second run
  ];

  test("tie rule 'segundo-tiempo': the better second time goes first; a missing one is worse", () => {
    const rows = rankTimeTrial(["c", "b", "a"], tied, { attempts: 2, tieRule: "segundo-tiempo" });
    expect(rows.map((r) => [r.teamId, r.place])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  test("tie rule 'menos-penalizaciones': fewer penalties in the best run; still equal, shared", () => {
    const rows = rankTimeTrial(["a", "b", "c"], tied, {
      attempts: 2,
      tieRule: "menos-penalizaciones",
    });
    expect(rows.map((r) => [r.teamId, r.place])).toEqual([
      ["b", 1],
      ["c", 1],
      ["a", 3],
    ]);
  });

  test("tie rule 'compartido': equal bests share the place", () => {
    const rows = rankTimeTrial(["a", "b", "c"], tied, { attempts: 2, tieRule: "compartido" });
    expect(rows.map((r) => r.place)).toEqual([1, 1, 1]);
  });

  test("an entry out of range is refused with its reason", () => {
    expect(runProblem({ attempt: 1, timeMs: 12_345, penaltyMs: 0 }, 3)).toBeNull();
    expect(runProblem({ attempt: 1, timeMs: null, penaltyMs: 0 }, 3)).toBeNull();
    expect(runProblem({ attempt: 4, timeMs: 1, penaltyMs: 0 }, 3)).toBe("attemptOutOfRange");
    expect(runProblem({ attempt: 0, timeMs: 1, penaltyMs: 0 }, 3)).toBe("attemptOutOfRange");
    expect(runProblem({ attempt: 1.5, timeMs: 1, penaltyMs: 0 }, 3)).toBe("attemptOutOfRange");
    for (const timeMs of [0, -5, 3_600_001, 12.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(runProblem({ attempt: 1, timeMs, penaltyMs: 0 }, 3), String(timeMs)).toBe(
        "timeOutOfRange",
      );
    for (const penaltyMs of [-1, 600_001, 0.5])
      expect(runProblem({ attempt: 1, timeMs: 5, penaltyMs }, 3)).toBe("penaltyOutOfRange");
    expect(JUDGING_MESSAGES.timeOutOfRange).toBe(
      "El tiempo debe estar entre 0,001 s y 60 minutos.",
    );
  });
});

describe("bracket", () => {
  const play = (entries: Array<[string, string[]]>) => new Map(entries);
  const firstRound = (b: Bracket) => (b.rounds[0] ?? []).map((m) => [m.a, m.b]);

  test("seed slots keep the best seeds apart until the end", () => {
    expect(seedSlots(2)).toEqual([1, 2]);
    expect(seedSlots(4)).toEqual([1, 4, 2, 3]);
    expect(seedSlots(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(seedSlots(16).slice(0, 4)).toEqual([1, 16, 8, 9]);
  });

  test("byes go to the best seeds, one each, when the teams are not a power of two", () => {
    for (const n of [3, 5, 6, 7, 9, 12]) {
      const b = bracketOf(teams(n), new Map(), "tercer-puesto");
      let size = 2;
      while (size < n) size *= 2;
      const first = b.rounds[0] ?? [];
      const byes = first.filter((m) => m.bye);
      expect(byes, `n=${n}`).toHaveLength(size - n);
      expect(
        first.every((m) => m.a !== null || m.b !== null),
        `n=${n}`,
      ).toBe(true);
      // The byes belong to seeds 1 … size − n, who are already in round 2.
      expect(byes.map((m) => m.winner).sort(), `n=${n}`).toEqual(teams(size - n).sort());
      for (const m of byes) expect(m.due).toBe(false);
    }
    expect(firstRound(bracketOf(teams(5), new Map(), "tercer-puesto"))).toEqual([
      ["t1", null],
      ["t4", "t5"],
      ["t2", null],
      ["t3", null],
    ]);
  });

  test("fewer than two teams make no bracket", () => {
    expect(bracketOf(["t1"], new Map(), "tercer-puesto").rounds).toEqual([]);
    expect(bracketOf([], new Map(), "tercer-puesto").places).toEqual([]);
  });

  test("the draw is reproducible from its number and does not depend on the listing order", () => {
    const ids = teams(12);
    const drawn = drawOrder(ids, 123_456_789);
    expect(drawn).toEqual(drawOrder([...ids].reverse(), 123_456_789));
    expect([...drawn].sort()).toEqual([...ids].sort());
    expect(drawOrder(ids, 987_654_321)).not.toEqual(drawn);
    // Pinned: a recorded draw must give the same order in every later version.
    expect(drawOrder(["a", "b", "c", "d"], 42)).toEqual(drawOrder(["d", "c", "b", "a"], 42));
    expect(drawOrder(["a", "b", "c", "d"], 42)).toMatchInlineSnapshot(`
      [
        "a",
        "d",
        "b",
        "c",
      ]
    `);
  });

  test("a match is won at the best of three; the winner moves on; a match waits for its teams", () => {
    const seeded = teams(4); // semifinals t1–t4 and t2–t3
    let b = bracketOf(seeded, play([["r1-0", ["t1"]]]), "tercer-puesto");
    expect(b.rounds[0]?.[0]).toMatchObject({ a: "t1", b: "t4", winner: null, due: true });
    expect(b.rounds[1]?.[0]).toMatchObject({ a: null, b: null, due: false });
    expect(roundProblem(b, "r2-0", "t1")).toBe("matchNotDue");
    expect(roundProblem(b, "tercer-puesto", "t4")).toBe("matchNotDue");

    b = bracketOf(seeded, play([["r1-0", ["t1", "t4", "t1"]]]), "tercer-puesto");
    expect(b.rounds[0]?.[0]?.winner).toBe("t1");
    expect(b.rounds[1]?.[0]).toMatchObject({ a: "t1", b: null, due: false });
    expect(roundProblem(b, "r1-0", "t1")).toBe("matchDecided");
    expect(roundProblem(b, "r1-1", "t1")).toBe("winnerNotInMatch");
    expect(roundProblem(b, "r9-0", "t1")).toBe("matchNotFound");
    expect(roundProblem(b, "r1-1", "t2")).toBeNull();
  });

  test("places with a third-place match: 1, 2, 3, 4; quarterfinal losers share 5th", () => {
    const b = bracketOf(
      teams(8),
      play([
        ["r1-0", ["t1", "t1"]],
        ["r1-1", ["t5", "t4", "t5"]],
        ["r1-2", ["t2", "t2"]],
        ["r1-3", ["t6", "t6"]],
        ["r2-0", ["t1", "t1"]],
        ["r2-1", ["t6", "t2", "t6"]],
        ["r3-0", ["t6", "t6"]],
        ["tercer-puesto", ["t5", "t2", "t2"]],
      ]),
      "tercer-puesto",
    );
    expect(b.champion).toBe("t6");
    expect(roundName(3, 3)).toBe("Final");
    expect(roundName(1, 3)).toBe("Cuartos de final");
    expect(Object.fromEntries(b.places.map((p) => [p.teamId, p.place]))).toEqual({
      t6: 1,
      t1: 2,
      t2: 3,
      t5: 4,
      t8: 5,
      t4: 5,
      t7: 5,
      t3: 5,
    });
  });

  test("places with a shared third: both semifinal losers are 3rd; no third-place match", () => {
    const b = bracketOf(
      teams(4),
      play([
        ["r1-0", ["t1", "t1"]],
        ["r1-1", ["t3", "t3"]],
        ["r2-0", ["t3", "t1", "t1"]],
      ]),
      "tercero-compartido",
    );
    expect(b.thirdPlace).toBeNull();
    expect(roundProblem(b, "tercer-puesto", "t2")).toBe("matchNotFound");
    expect(Object.fromEntries(b.places.map((p) => [p.teamId, p.place]))).toEqual({
      t1: 1,
      t3: 2,
      t4: 3,
      t2: 3,
    });
  });

  test("three teams: the first seed's bye leaves one semifinal loser, third alone, no third-place match", () => {
    const b = bracketOf(
      teams(3),
      play([
        ["r1-1", ["t3", "t3"]],
        ["r2-0", ["t1", "t1"]],
      ]),
      "tercer-puesto",
    );
    expect(roundProblem(b, "r1-0", "t1")).toBe("matchIsBye");
    expect(b.thirdPlace).toBeNull();
    expect(b.places).toEqual([
      { teamId: "t1", place: 1 },
      { teamId: "t2", place: 3 },
      { teamId: "t3", place: 2 },
    ]);
  });
});

describe("score sheet", () => {
  const criteria = [
    { id: "diseno", name: "Diseño", max: 10 },
    { id: "codigo", name: "Programación", max: 20 },
  ];
  const sheet = (teamId: string, judgeId: string, diseno: number, codigo: number): Sheet => ({
    teamId,
    judgeId,
    points: { diseno: diseno * 100, codigo: codigo * 100 },
  });

  test("a team's score is its judges' average; without a sheet, no place", () => {
    const rows = rankScoreSheet(
      ["a", "b", "c"],
      criteria,
      [sheet("a", "j1", 8, 15), sheet("a", "j2", 6, 16), sheet("b", "j1", 9, 18)],
      "compartido",
    );
    expect(rows).toEqual([
      { teamId: "b", place: 1, average: 2700, byCriterion: [900, 1800], judges: 1 },
      { teamId: "a", place: 2, average: 2250, byCriterion: [700, 1550], judges: 2 },
      { teamId: "c", place: null, average: null, byCriterion: [null, null], judges: 0 },
    ]);
  });

  // a: 10 + 14 (one judge: 24); b: 7 + 15 and 7 + 19 (24 on average, 26 at best); c: 5 + 19 (24).
  const level = [
    sheet("a", "j1", 10, 14),
    sheet("b", "j1", 7, 15),
    sheet("b", "j2", 7, 19),
    sheet("c", "j1", 5, 19),
  ];

  test("tie rule 'primer-criterio': the better average on the first criterion goes first", () => {
    const rows = rankScoreSheet(["c", "b", "a"], criteria, level, "primer-criterio");
    expect(rows.map((r) => [r.teamId, r.place])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  test("tie rule 'mejor-nota': the highest one judge's total goes first", () => {
    const rows = rankScoreSheet(["a", "b", "c"], criteria, level, "mejor-nota");
    expect(rows.map((r) => [r.teamId, r.place])).toEqual([
      ["b", 1],
      ["a", 2],
      ["c", 2],
    ]);
  });

  test("tie rule 'compartido': equal averages share the place, compared exactly", () => {
    // 1/3 of a point apart would round equal in hundredths; equal sums over equal judges are equal.
    const rows = rankScoreSheet(["a", "b", "c"], criteria, level, "compartido");
    expect(rows.map((r) => r.place)).toEqual([1, 1, 1]);
    const close = rankScoreSheet(
      ["x", "y"],
      [{ id: "p", name: "Puntos", max: 10 }],
      [
        { teamId: "x", judgeId: "j1", points: { p: 100 } },
        { teamId: "x", judgeId: "j2", points: { p: 100 } },
        { teamId: "x", judgeId: "j3", points: { p: 101 } },
        { teamId: "y", judgeId: "j1", points: { p: 100 } },
      ],
      "compartido",
    );
    expect(close.map((r) => [r.teamId, r.place])).toEqual([
      ["x", 1],
      ["y", 2],
    ]);
  });

  test("a sheet must score every criterion between 0 and its maximum; criteria have bounds", () => {
    expect(sheetProblem(criteria, { diseno: 1000, codigo: 0 })).toBeNull();
    expect(sheetProblem(criteria, { diseno: 500 })).toBe("criterionMissing");
    expect(sheetProblem(criteria, { diseno: 1001, codigo: 0 })).toBe("scoreOutOfRange");
    expect(sheetProblem(criteria, { diseno: -1, codigo: 0 })).toBe("scoreOutOfRange");
    expect(sheetProblem(criteria, { diseno: "10", codigo: 0 })).toBe("scoreOutOfRange");
    expect(sheetProblem(criteria, { diseno: 10.5, codigo: 0 })).toBe("scoreOutOfRange");
    expect(criteriaProblem(criteria)).toBeNull();
    expect(criteriaProblem([])).toBe("criteriaInvalid");
    expect(criteriaProblem([{ id: "x", name: " ", max: 10 }])).toBe("criteriaInvalid");
    expect(criteriaProblem([{ id: "x", name: "A", max: 0 }])).toBe("criteriaInvalid");
    expect(criteriaProblem([...criteria, criteria[0] as (typeof criteria)[number]])).toBe(
      "criteriaInvalid",
    );
  });
});

test("each format has its tie rules, a default among them, and words for the results page", () => {
  for (const format of ["tiempo", "llaves", "puntaje"] as const) {
    expect(isTieRule(format, DEFAULT_TIE_RULE[format])).toBe(true);
    for (const rule of Object.values(TIE_RULES[format]))
      expect(rule.explain.length).toBeGreaterThan(20);
  }
  expect(isTieRule("tiempo", "tercer-puesto")).toBe(false);
  expect(isTieRule("puntaje", "toString")).toBe(false);
});
