// What keeping acknowledged writes on disk costs the embedded database: the same single-row
// inserts and small transactions on PGlite as the site opens it (an fsync after each write) and on
// PGlite opened bare (no fsync), each in a fresh data folder. `npm run bench:fsync [-- --writes N]`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { openEmbedded } from "../app/db/client.server";

const arg = process.argv.indexOf("--writes");
const WRITES = arg > 0 ? Number(process.argv[arg + 1]) : 500;

type Run = (statement: string) => Promise<unknown>;

async function measure(label: string, run: Run, fsyncs: () => number) {
  await run("create table medida (n int, t text)");
  const latencies: number[] = [];
  const start = performance.now();
  const syncedBefore = fsyncs();
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now();
    await run(`insert into medida values (${i}, repeat('x', 100))`);
    latencies.push(performance.now() - t);
  }
  const total = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  console.log(
    `${label.padEnd(26)} ${String(WRITES).padStart(6)} escrituras  ${(WRITES / (total / 1000)).toFixed(0).padStart(6)}/s` +
      `  p50 ${pct(0.5).toFixed(2)} ms  p99 ${pct(0.99).toFixed(2)} ms  fsync ${fsyncs() - syncedBefore}`,
  );
}

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-bench-fsync-"));
}

const bareDir = freshDir();
const bare = await PGlite.create(path.join(bareDir, "pgdata"));
try {
  await measure(
    "PGlite sin fsync",
    (s) => bare.exec(s),
    () => 0,
  );
} finally {
  await bare.close();
  fs.rmSync(bareDir, { recursive: true, force: true });
}

const durableDir = freshDir();
const durable = await openEmbedded(durableDir);
try {
  await measure(
    "embebida (fsync al confirmar)",
    (s) => durable.db.execute(sql.raw(s)),
    () => durable.fsyncs?.() ?? 0,
  );
} finally {
  await durable.close();
  fs.rmSync(durableDir, { recursive: true, force: true });
}
