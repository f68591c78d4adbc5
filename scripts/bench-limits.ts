// npm run bench:limits — what counting the sign-in limit in the database costs per attempt
// (docs/decisions/031-limits-and-jobs-across-nodes.md), beside the count in memory it replaced,
// and what claiming a job's run costs. On a fresh embedded database and, with DATABASE_URL, on a
// fresh database on that PostgreSQL server (dropped afterwards). Each row: attempts counted one
// after the other (p50 and p99 of each count's time, in microseconds), then BENCH_CONCURRENCY
// (default 20) at once (counts per second), for one client address and for a new address each time.
//   BENCH_ATTEMPTS (default 2000 per row), BENCH_DATABASES ("embedded", "postgres", default both).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemoryStore, type Store } from "express-rate-limit";
import pg from "pg";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";
import { claimJobRun } from "../app/db/jobs.server";
import { signInAttemptStore } from "../app/members/sign-in-limit.server";

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DATABASES = (process.env.BENCH_DATABASES ?? "embedded,postgres").split(",");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

interface Row {
  name: string;
  p50: number;
  p99: number;
  perSecond: number;
}

async function measure(name: string, count: (i: number) => Promise<unknown>): Promise<Row> {
  for (let i = 0; i < 50; i++) await count(-1 - i); // warm up: prepared plans, connections
  const times: number[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const started = process.hrtime.bigint();
    await count(i);
    times.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ATTEMPTS) await count(ATTEMPTS + next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    name,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: ATTEMPTS / seconds,
  };
}

function storeRows(label: string, store: Store): Array<() => Promise<Row>> {
  store.init?.({ windowMs: 60_000 } as Parameters<NonNullable<Store["init"]>>[0]);
  const run = randomBytes(4).toString("hex");
  return [
    () =>
      measure(`${label}, una dirección`, () =>
        Promise.resolve(store.increment(`198.51.100.1-${run}`)),
      ),
    () =>
      measure(`${label}, una dirección nueva cada vez`, (i) =>
        Promise.resolve(store.increment(`c${i}-${run}`)),
      ),
  ];
}

function print(rows: Row[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `${"".padEnd(width)}  ${"p50 µs".padStart(8)}  ${"p99 µs".padStart(8)}  ${`${CONCURRENCY} a la vez: por s`.padStart(20)}`,
  );
  for (const r of rows)
    console.log(
      `${r.name.padEnd(width)}  ${r.p50.toFixed(0).padStart(8)}  ${r.p99.toFixed(0).padStart(8)}  ${r.perSecond.toFixed(0).padStart(20)}`,
    );
}

async function benchDatabase(label: string, database: Database): Promise<Row[]> {
  const rows: Row[] = [];
  for (const row of storeRows(
    `${label}: inicio de sesión contado`,
    signInAttemptStore(database.db),
  ))
    rows.push(await row());
  rows.push(
    await measure(`${label}: reclamar la ejecución de un trabajo`, () =>
      claimJobRun(database.db, "bench-trabajo", 3_600_000),
    ),
  );
  return rows;
}

async function main(): Promise<void> {
  console.log(
    `Costo de contar el límite de inicio de sesión (${ATTEMPTS} intentos por fila; ${os.cpus().length} núcleos)\n`,
  );
  const rows: Row[] = [];
  const memory = new MemoryStore();
  for (const row of storeRows("en memoria (antes)", memory)) rows.push(await row());
  memory.shutdown();

  if (DATABASES.includes("embedded")) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-limites-"));
    const database = await openEmbedded(dir);
    try {
      rows.push(...(await benchDatabase("integrada", database)));
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl && DATABASES.includes("postgres")) {
    const name = `ayllu_bench_limites_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openPostgres(url.toString(), { max: CONCURRENCY });
    try {
      rows.push(...(await benchDatabase("PostgreSQL", database)));
    } finally {
      await database.close();
      // pg's pool closes its connections a moment after close() resolves: a forced drop before
      // that would end them under it.
      for (let waited = 0; waited < 5000; waited += 50) {
        const { rows: open } = await admin.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = $1",
          [name],
        );
        if (open[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
  print(rows);
}

await main();
