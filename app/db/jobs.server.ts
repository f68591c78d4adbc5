// Background jobs claimed in the database: every process ticks, and the one whose claim of the
// next run succeeds does the work, so one run happens across all processes and machines of a
// site (docs/decisions/031-limits-and-jobs-across-nodes.md). The database's clock decides, not
// each machine's.
import os from "node:os";
import { sql } from "drizzle-orm";
import type { Db } from "./client.server";
import { rowsOf } from "./rows.server";

/** This process, as the jobs table names the one that claimed a run. */
export const NODE_NAME = `${os.hostname()}:${process.pid}`;

/**
 * Claims the run of `name` that is due, if no process has claimed it within the last `everyMs`
 * (less `slackMs`: a tick a moment early still finds it due). Returns true to the one caller that
 * got it. One statement: of two processes at once, the second waits on the row the first inserts
 * or updates, then finds it no longer due.
 */
export async function claimJobRun(
  db: Db,
  name: string,
  everyMs: number,
  options: { slackMs?: number; node?: string } = {},
): Promise<boolean> {
  const gapMs = Math.max(0, everyMs - (options.slackMs ?? 0));
  const node = options.node ?? NODE_NAME;
  const rows = rowsOf<{ runs: number }>(
    await db.execute(sql`
      insert into scheduled_jobs as j (name, next_run_at, runs, last_run_at, last_node)
      values (${name}, clock_timestamp() + make_interval(secs => ${gapMs / 1000}), 1, clock_timestamp(), ${node})
      on conflict (name) do update set
        next_run_at = clock_timestamp() + make_interval(secs => ${gapMs / 1000}),
        runs = j.runs + 1, last_run_at = clock_timestamp(), last_node = ${node}
      where j.next_run_at <= clock_timestamp()
      returning j.runs`),
  );
  return rows.length === 1;
}

/**
 * Makes `name` due again `retryMs` after now: a run that failed is tried again soon rather than
 * a whole interval after its claim.
 */
export async function retryJobRunAfter(db: Db, name: string, retryMs: number): Promise<void> {
  await db.execute(sql`
    update scheduled_jobs
      set next_run_at = clock_timestamp() + make_interval(secs => ${retryMs / 1000})
      where name = ${name}`);
}

export interface ClaimedJob {
  /** The job's name in the jobs table; one name, one run at a time across the site. */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Logged (in Spanish, for the operator) with the error when a run fails. */
  failure: string;
  /** When given, a run is claimed only while this says the job is due (a job at a set hour). */
  due?: () => boolean;
  /** When given, a run that fails is claimable again this long after it (still only while due). */
  retryMs?: number;
}

/** How often a process asks whether a job is due: often enough that runs stay close to `everyMs`. */
export function tickMs(everyMs: number): number {
  return Math.min(everyMs, 60_000);
}

/**
 * Runs `job` whenever this process claims it: asked at start and every tickMs(everyMs), one run
 * at a time in this process. A failed claim or run (the database briefly away) is logged and
 * asked again at the next tick; a failed run is claimable again after `retryMs` when given. Returns how to stop (waiting for a run under way).
 */
export function startClaimedJob(db: Db, job: ClaimedJob): () => Promise<void> {
  const tick = tickMs(Math.min(job.everyMs, job.retryMs ?? job.everyMs));
  // A tenth of a tick: setInterval's drift does not skip a run that is due.
  const slackMs = Math.min(tick / 10, 5_000);
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const attempt = () => {
    running = running
      .then(async () => {
        if (stopped || (job.due && !job.due())) return;
        if (!(await claimJobRun(db, job.name, job.everyMs, { slackMs }))) return;
        try {
          await job.run();
        } catch (error) {
          // With the database away this fails too: the run then waits its whole interval.
          if (job.retryMs !== undefined)
            await retryJobRunAfter(db, job.name, job.retryMs).catch(() => {});
          throw error;
        }
      })
      .catch((error: unknown) => {
        console.error(job.failure, error);
      });
  };
  attempt();
  const timer = setInterval(attempt, tick);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
