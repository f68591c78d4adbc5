// The door's check-in and the judge's screen send what waits one round at a time; something
// queued while a round runs must go right after it, not at the next round 20 seconds later (the
// door's phone left the page meanwhile and the check-in never reached the server: seen in CI).
import { expect, test } from "vitest";
import { oneAtATime } from "~/kernel/offline-page";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

test("a call while a run is under way asks for one more run after it, and answers when that one ends", async () => {
  const gates = [gate(), gate()];
  const runs: number[] = [];
  const send = oneAtATime(async () => {
    const n = runs.length;
    runs.push(n);
    await gates[n]!.opened;
  });
  const first = send();
  let secondDone = false;
  const second = send().then(() => (secondDone = true));
  // Several calls meanwhile ask for one more run in all.
  void send();
  expect(runs).toEqual([0]);
  gates[0]!.open();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(runs).toEqual([0, 1]);
  expect(secondDone).toBe(false);
  gates[1]!.open();
  await Promise.all([first, second]);
  expect(secondDone).toBe(true);
  expect(runs).toEqual([0, 1]);
  // Idle again: the next call starts a run of its own.
  gates.push(gate());
  gates[2]!.open();
  await send();
  expect(runs).toEqual([0, 1, 2]);
});

test("a run that fails lets the next call run", async () => {
  let calls = 0;
  const send = oneAtATime(async () => {
    calls += 1;
    if (calls === 1) throw new Error("sin conexión");
  });
  await expect(send()).rejects.toThrow("sin conexión");
  await send();
  expect(calls).toBe(2);
});
