// The door's check-in and the judge's screen send what waits one round at a time; something
// queued while a round runs must go right after it, not at the next round 20 seconds later (the
// door's phone left the page meanwhile and the check-in never reached the server: seen in CI).
import { expect, test } from "vitest";
import { oneAtATime } from "~/kernel/offline-page";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

// Calls made before a run has started are covered by it: it has not read the queue yet.
test("a call while a run is under way asks for one more run after it, and answers when that one ends", async () => {
  const gates = [gate(), gate()];
  const runs: number[] = [];
  const send = oneAtATime(async () => {
    const n = runs.length;
    runs.push(n);
    await gates[n]!.opened;
  });
  const first = send();
  await tick();
  expect(runs).toEqual([0]);
  let secondDone = false;
  const second = send().then(() => (secondDone = true));
  // Several calls meanwhile ask for one more run in all.
  void send();
  await tick();
  expect(runs).toEqual([0]);
  gates[0]!.open();
  await tick();
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

test("a call while a run fails still gets its run, and hears of no failure once it succeeds", async () => {
  const gates = [gate(), gate()];
  let calls = 0;
  const send = oneAtATime(async () => {
    const n = calls++;
    await gates[n]!.opened;
    if (n === 0) throw new Error("sin conexión");
  });
  const first = send();
  await tick();
  const second = send();
  gates[0]!.open();
  gates[1]!.open();
  await expect(Promise.all([first, second])).resolves.toBeDefined();
  expect(calls).toBe(2);
});

test("a run that throws before its first await does not leave the sender stuck", async () => {
  let calls = 0;
  const send = oneAtATime((() => {
    calls += 1;
    if (calls === 1) throw new Error("al empezar");
    return Promise.resolve();
  }) as () => Promise<void>);
  await expect(send()).rejects.toThrow("al empezar");
  await send();
  expect(calls).toBe(2);
});
