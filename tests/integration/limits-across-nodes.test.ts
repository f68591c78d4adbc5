// The sign-in limit and the timed jobs hold across the processes and machines of one site
// (docs/decisions/031-limits-and-jobs-across-nodes.md): two app instances on one database, each
// with its own connections (on PostgreSQL), count one limit and run each job once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { claimJobRun, startClaimedJob } from "~/db/jobs.server";
import { rowsOf } from "~/db/rows.server";
import { signInAttemptStore, sweepSignInAttempts } from "~/members/sign-in-limit.server";
import { restoreBackup, writeBackup } from "#server/backup/backup.server";
import { BrowserClient } from "../helpers/browser-client";
import { createTestDatabase } from "../helpers/database";
import { openSharedDatabase, type SharedDatabase } from "../helpers/shared-database";
import { startTestServer, type TestServer } from "../helpers/server";

let shared: SharedDatabase;
let nodeA: TestServer;
let nodeB: TestServer;

beforeAll(async () => {
  shared = await openSharedDatabase();
  // TRUST_PROXY=1: each test names its client address in X-Forwarded-For, so tests do not share a count.
  const env = { LOGIN_RATE_LIMIT: "4", TRUST_PROXY: "1" };
  nodeA = await startTestServer(env, { database: shared.first });
  nodeB = await startTestServer(env, { database: shared.second });
});
afterAll(async () => {
  await nodeB?.close();
  await nodeA?.close();
  await shared?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface JobRow {
  name: string;
  runs: number;
}

async function jobRows(): Promise<JobRow[]> {
  return rowsOf<JobRow>(
    await shared.first.db.execute(
      sql`select name, runs::int as runs from scheduled_jobs order by name`,
    ),
  );
}

function signInAttempt(node: TestServer, client: string) {
  return new BrowserClient(node.url).request("POST", "/login", {
    body: new URLSearchParams(),
    origin: node.url.origin,
    headers: { "X-Forwarded-For": client },
  });
}

test("the sign-in limit is one count across two nodes: past LOGIN_RATE_LIMIT on either, a 429 on both", async () => {
  const client = "198.51.100.10";
  for (const node of [nodeA, nodeB, nodeA, nodeB])
    expect((await signInAttempt(node, client)).status).toBe(302);
  for (const node of [nodeA, nodeB]) {
    const refused = await signInAttempt(node, client);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain("Demasiados intentos de inicio de sesión");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
  }
  // Another address has a minute of its own.
  expect((await signInAttempt(nodeB, "198.51.100.11")).status).toBe(302);
});

test("attempts sent to both nodes at once are all counted: exactly LOGIN_RATE_LIMIT get through", async () => {
  const client = "198.51.100.20";
  const replies = await Promise.all(
    Array.from({ length: 16 }, (_, i) => signInAttempt(i % 2 ? nodeA : nodeB, client)),
  );
  const statuses = replies.map((r) => r.status);
  expect(statuses.filter((s) => s === 302)).toHaveLength(4);
  expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  const [row] = rowsOf<{ hits: number }>(
    await shared.first.db.execute(
      sql`select hits from sign_in_attempts where client like ${"%198.51.100.20%"}`,
    ),
  );
  expect(row?.hits).toBe(16);
});

test("an ended window starts again at one, and the sweep deletes only ended windows", async () => {
  const store = signInAttemptStore(shared.first.db);
  await shared.first.db.execute(sql`insert into sign_in_attempts (client, hits, resets_at)
    values ('ventana-pasada', 99, now() - interval '1 second'),
           ('ventana-vieja', 7, now() - interval '1 hour'),
           ('ventana-viva', 3, now() + interval '30 seconds')`);
  const restarted = await store.increment("ventana-pasada");
  expect(restarted.totalHits).toBe(1);
  expect(restarted.resetTime!.getTime()).toBeGreaterThan(Date.now() + 50_000);
  expect((await store.increment("ventana-viva")).totalHits).toBe(4);
  expect(await store.get!("ventana-vieja")).toBeUndefined();
  expect(await sweepSignInAttempts(shared.second.db)).toBeGreaterThanOrEqual(1);
  const left = rowsOf<{ client: string }>(
    await shared.first.db.execute(
      sql`select client from sign_in_attempts where client like 'ventana-%' order by client`,
    ),
  );
  expect(left.map((r) => r.client)).toEqual(["ventana-pasada", "ventana-viva"]);
});

test("two nodes started on one database ran each timed job once; the upload sweep once per uploads folder", async () => {
  const expected = ["sessions-sweep", "sign-in-attempts-sweep"];
  if (shared.first.kind === "embedded") expected.push("embedded-maintenance");
  // The first runs are asked for at start, without holding the start up: wait for them.
  for (let waited = 0; waited < 10_000; waited += 100) {
    const names = (await jobRows()).map((r) => r.name);
    if (
      expected.every((name) => names.includes(name)) &&
      names.filter((n) => n.startsWith("uploads-sweep:")).length === 2
    )
      break;
    await sleep(100);
  }
  await sleep(300);
  const rows = await jobRows();
  for (const name of expected) expect(rows.find((r) => r.name === name)?.runs).toBe(1);
  // Each test node has a folder of its own (as two machines would): each is swept, once.
  const sweeps = rows.filter((r) => r.name.startsWith("uploads-sweep:"));
  expect(sweeps).toHaveLength(2);
  for (const node of [nodeA, nodeB])
    expect(sweeps.some((r) => r.name.endsWith(`:${node.config.uploadsDir}`))).toBe(true);
  expect(sweeps.map((r) => r.runs)).toEqual([1, 1]);
});

test("of many claims of a due run at once, from both nodes' connections, exactly one wins; the next only after the interval", async () => {
  const claimAll = () =>
    Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        claimJobRun((i % 2 ? shared.first : shared.second).db, "prueba-reclamo", 3_600_000),
      ),
    );
  expect((await claimAll()).filter(Boolean)).toHaveLength(1);
  expect((await claimAll()).filter(Boolean)).toHaveLength(0);
  // The hour has passed.
  await shared.first.db.execute(
    sql`update scheduled_jobs set next_run_at = now() - interval '1 second' where name = 'prueba-reclamo'`,
  );
  expect((await claimAll()).filter(Boolean)).toHaveLength(1);
  expect((await jobRows()).find((r) => r.name === "prueba-reclamo")?.runs).toBe(2);
});

test("a job ticking on two nodes runs on one at a time, never two runs closer than its interval", async () => {
  const everyMs = 300;
  const runs: { at: number; node: string }[] = [];
  const started = performance.now();
  const stops = (
    [
      ["A", shared.first],
      ["B", shared.second],
    ] as const
  ).map(([node, database]) =>
    startClaimedJob(database.db, {
      name: "prueba-intervalo",
      everyMs,
      run: async () => {
        runs.push({ at: performance.now(), node });
      },
      failure: "prueba:",
    }),
  );
  await sleep(2_500);
  await Promise.all(stops.map((stop) => stop()));
  const elapsed = performance.now() - started;
  // Each node ticked about 9 times: run on both, the job would have run about 18 times.
  expect(runs.length).toBeGreaterThanOrEqual(3);
  const gap = everyMs - everyMs / 10;
  expect(runs.length).toBeLessThanOrEqual(Math.floor(elapsed / gap) + 1);
  const times = runs.map((r) => r.at).sort((a, b) => a - b);
  // The claim is timed by the database's clock; the run starts a moment after it returns, and on
  // a loaded machine one run may start late and the next on time (a CI run saw 223 ms between two
  // runs 300 ms apart by the claims). Two nodes running one tick would be a few ms apart: half the
  // interval tells the two apart without timing the machine.
  for (let i = 1; i < times.length; i++)
    expect(times[i]! - times[i - 1]!).toBeGreaterThan(everyMs / 2);
});

test("a backup leaves the coordination tables out, and a database a server has run on (jobs claimed, attempts counted) still restores", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-coordinacion-"));
  const target = await createTestDatabase();
  try {
    expect((await jobRows()).length).toBeGreaterThan(0);
    const file = path.join(dir, "copia.gz");
    await writeBackup(shared.first.db, file, shared.first.kind);
    const lines = zlib.gunzipSync(fs.readFileSync(file)).toString().trimEnd().split("\n");
    const header = JSON.parse(lines[0]!) as { tables: { name: string }[] };
    const names = header.tables.map((t) => t.name);
    expect(names).toContain("sessions");
    expect(names).not.toContain("scheduled_jobs");
    expect(names).not.toContain("sign_in_attempts");
    expect(lines.some((l) => l.startsWith('{"table":"scheduled_jobs"'))).toBe(false);

    await claimJobRun(target.db, "sessions-sweep", 60_000);
    await signInAttemptStore(target.db).increment("203.0.113.9");
    await restoreBackup(target.db, file);
    // Left as they were: they are the target's processes' own.
    const [kept] = rowsOf<{ n: number }>(
      await target.db.execute(sql`select count(*)::int as n from scheduled_jobs`),
    );
    expect(kept?.n).toBe(1);
  } finally {
    await target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
