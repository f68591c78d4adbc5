// Nothing runs twice and nothing is skipped across an upgrade and the night (issue 53): a new
// version on trial (DATA_DIR/upgrade-trial, written by ./ayllu upgrade) sends no mail and runs
// no job until the upgrade keeps it, so a rollback does not do them twice; a nightly backup that
// fails is tried again within its hour, not the next night; the small site's copy of its data
// folder from an upgrade goes once it is a day old.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, expect, test, vi } from "vitest";
import { startClaimedJob } from "~/db/jobs.server";
import { rowsOf } from "~/db/rows.server";
import { queueMail } from "~/mail/mail.server";
import {
  PREVIOUS_DATA_COPY,
  UPGRADE_TRIAL_FILE,
  prunePreviousDataCopy,
} from "~/kernel/upgrade-trial.server";
import { createTestDatabase } from "../helpers/database";
import { createMember } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-prueba-actualizacion-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer(env);
  cleanups.push(() => server.close());
  return server;
}

async function jobNames(server: TestServer): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await server.db.execute(sql`select name from scheduled_jobs order by name`),
  );
  return rows.map((r) => r.name);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, what: string) {
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${what}: no ocurrió en 15 s`);
}

test("a version on trial sends no mail and runs no job; once the upgrade keeps it, it sends what waited and runs its jobs", async () => {
  const smtp: TestSmtp = await startTestSmtp();
  cleanups.push(() => smtp.close());
  const data = dataDir();
  fs.writeFileSync(path.join(data, UPGRADE_TRIAL_FILE), "");
  const server = await started({
    DATA_DIR: data,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Ayllu <eventos@ayllu.example>",
    // Ticks of 0.6 s: a job that were run would be seen at once.
    SESSION_SWEEP_MINUTES: "0.01",
  });
  const { user } = await createMember(server);
  const before = smtp.received.length;
  expect(await queueMail(server.db, "welcome", sql`${user.id}::uuid`)).toBe(1);
  await server.settled();
  await sleep(1500);
  expect(smtp.received.length).toBe(before);
  expect(await jobNames(server)).toEqual([]);
  const [waiting] = rowsOf<{ n: number }>(
    await server.db.execute(
      sql`select count(*)::int as n from mail_outbox where status = 'pending'`,
    ),
  );
  expect(waiting!.n).toBeGreaterThanOrEqual(1);

  // The upgrade keeps this version: the next wake-up sends, the next tick runs.
  fs.rmSync(path.join(data, UPGRADE_TRIAL_FILE));
  await queueMail(server.db, "welcome", sql`${user.id}::uuid`);
  await smtp.waitFor(before + 2);
  await eventually(
    async () => (await jobNames(server)).includes("sessions-sweep"),
    "La tarea de sesiones vencidas",
  );
});

test("a job run that fails is claimable again after its retry time, not a whole interval later", async () => {
  const database = await createTestDatabase();
  cleanups.push(() => database.close());
  const runs: number[] = [];
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  const stop = startClaimedJob(database.db, {
    name: "prueba-reintento",
    everyMs: 60 * 60 * 1000,
    retryMs: 300,
    run: async () => {
      runs.push(Date.now());
      if (runs.length === 1) throw new Error("el disco está lleno");
    },
    failure: "prueba:",
  });
  cleanups.push(stop);
  await eventually(async () => runs.length >= 2, "El segundo intento");
  await sleep(1000);
  // Succeeded: the next run is the interval's.
  expect(runs).toHaveLength(2);
  expect(errors.mock.calls.map((call) => String(call[0]))).toEqual(["prueba:"]);
});

test("the nightly backup that fails is due again ten minutes later, within its hour", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  cleanups.push(() => errors.mockRestore());
  // A folder that cannot be made: a file stands where it would go.
  const data = dataDir();
  fs.writeFileSync(path.join(data, "ocupado"), "");
  const hour = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    hourCycle: "h23",
    timeZone: "America/La_Paz",
  }).format(new Date());
  const server = await started({
    DATA_DIR: data,
    BACKUP_DIR: path.join(data, "ocupado", "copias"),
    BACKUP_HOUR: String(Number(hour)),
  });
  await eventually(
    async () =>
      errors.mock.calls.some((call) =>
        String(call[0]).startsWith("No se pudo hacer la copia de seguridad nocturna"),
      ),
    "La copia nocturna fallida",
  );
  const [row] = rowsOf<{ seconds: number }>(
    await server.db.execute(sql`
      select extract(epoch from next_run_at - clock_timestamp())::float as seconds
      from scheduled_jobs where name = 'nightly-backup'`),
  );
  expect(row!.seconds).toBeGreaterThan(8 * 60);
  expect(row!.seconds).toBeLessThanOrEqual(10 * 60);
});

test("the small site's copy of its data folder from an upgrade goes once it is a day old, not before nor on trial", async () => {
  const hour = 60 * 60 * 1000;
  const data = dataDir();
  const copy = path.join(data, PREVIOUS_DATA_COPY);
  fs.mkdirSync(path.join(copy, "base"), { recursive: true });
  fs.writeFileSync(path.join(copy, "PG_VERSION"), "17");
  const madeAgo = (ms: number) => fs.utimesSync(copy, new Date(), new Date(Date.now() - ms));

  madeAgo(23 * hour);
  expect(await prunePreviousDataCopy(data, new Date())).toBe(false);
  madeAgo(25 * hour);
  fs.writeFileSync(path.join(data, UPGRADE_TRIAL_FILE), "");
  expect(await prunePreviousDataCopy(data, new Date())).toBe(false);
  expect(fs.existsSync(copy)).toBe(true);
  fs.rmSync(path.join(data, UPGRADE_TRIAL_FILE));

  // The server's own job, at its start.
  const logs = vi.spyOn(console, "log").mockImplementation(() => {});
  cleanups.push(() => logs.mockRestore());
  await started({ DATA_DIR: data });
  await eventually(async () => !fs.existsSync(copy), "La copia de un día");
  expect(fs.existsSync(data)).toBe(true);
});
