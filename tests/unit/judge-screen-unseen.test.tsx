// @vitest-environment jsdom
// The judge's screen says when it showed no entry for the run or round it sends (decision 059):
// an organiser's entry made without seeing one that stands (offline while a judge entered it) is
// then a second entry for the organisers to decide, never a silent correction.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, expect, test } from "vitest";
import { BracketPanel } from "~/competitions/components/judge-bracket";
import { TimeTrialPanel } from "~/competitions/components/judge-time-trial";
import { bracketOf } from "~/competitions/judging/bracket";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import type { EntryFields } from "~/competitions/judging/judge-entry";
import type { ShownRun } from "~/competitions/judging/use-judge-sync";

afterEach(cleanup);

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";

function boardOf(format: "tiempo" | "llaves"): JudgeBoard {
  return {
    generatedAt: new Date().toISOString(),
    category: { format, attempts: 2, criteria: [], final: false } as never,
    role: "organiser",
    organiser: true,
    judgeId: "00000000-0000-4000-8000-000000000001",
    teams: [
      { id: A, name: "Los Cóndores", school: "Colegio" },
      { id: B, name: "Los Pumas", school: "Colegio" },
    ],
    names: { [A]: "Los Cóndores", [B]: "Los Pumas" },
    ranking: [],
    runs: [],
    bracket: null,
    sheets: [],
    locked: false,
  };
}

test("a run the screen showed from the server is sent as a correction of that run, one waiting on this phone as a correction of that one, and one it did not show says so", () => {
  const entries: EntryFields[] = [];
  // Run 1 of Los Cóndores the server has; run 1 of Los Pumas only waits on this phone.
  const runs: ShownRun[] = [
    { teamId: B, attempt: 1, timeMs: 13000, penaltyMs: 0, state: "pending" },
    { teamId: A, attempt: 1, timeMs: 12345, penaltyMs: 0, state: "standing" },
  ];
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <TimeTrialPanel
          board={boardOf("tiempo")}
          entryId="x"
          runs={runs}
          ranking={[]}
          onEntry={(_intent, fields) => entries.push(fields)}
        />
      ),
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  const team = screen.getByLabelText("Equipo");
  // Run 1 of Los Cóndores is on the screen: correcting it.
  fireEvent.change(team, { target: { value: A } });
  fireEvent.click(screen.getByRole("radio", { name: "1" }));
  fireEvent.change(screen.getByLabelText("Tiempo"), { target: { value: "12" } });
  fireEvent.click(screen.getByRole("button", { name: "Anotar vuelta" }));
  // Run 1 of Los Pumas only waits on this phone: the fix names that run, so it counts only if
  // that one stands when it arrives (a judge may have entered the run meanwhile).
  fireEvent.change(team, { target: { value: B } });
  fireEvent.click(screen.getByRole("radio", { name: "1" }));
  fireEvent.change(screen.getByLabelText("Tiempo"), { target: { value: "13,5" } });
  fireEvent.click(screen.getByRole("button", { name: "Anotar vuelta" }));
  expect(entries).toHaveLength(2);
  // The correction names the run it saw, so it counts only over that one.
  expect(entries[0]).toMatchObject({ equipo: A, vuelta: "1", tiempo: "12", visto: "12345+0" });
  expect(entries[0]!.sinVer).toBeUndefined();
  expect(entries[1]).toMatchObject({ equipo: B, vuelta: "1", tiempo: "13,5", visto: "13000+0" });
  expect(entries[1]!.sinVer).toBeUndefined();
  // Run 2 of Los Cóndores is on neither: made without seeing one.
  fireEvent.change(team, { target: { value: A } });
  fireEvent.click(screen.getByRole("radio", { name: "2" }));
  fireEvent.change(screen.getByLabelText("Tiempo"), { target: { value: "14" } });
  fireEvent.click(screen.getByRole("button", { name: "Anotar vuelta" }));
  expect(entries[2]).toMatchObject({ equipo: A, vuelta: "2", tiempo: "14", sinVer: "1" });
  expect(entries[2]!.visto).toBeUndefined();
});

test("a bracket's round is only offered before one is shown for it: it is always sent as unseen", () => {
  const entries: EntryFields[] = [];
  const bracket = bracketOf([A, B], new Map(), "tercer-puesto");
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <BracketPanel
          board={boardOf("llaves")}
          entryId="x"
          bracket={bracket}
          pendingRounds={new Map()}
          onEntry={(_intent, fields) => entries.push(fields)}
        />
      ),
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  fireEvent.click(screen.getByRole("button", { name: "Gana «Los Pumas»" }));
  expect(entries).toEqual([
    expect.objectContaining({ partido: expect.any(String), ronda: "1", ganador: B, sinVer: "1" }),
  ]);
});
