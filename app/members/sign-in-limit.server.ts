// The sign-in rate limit's count (LOGIN_RATE_LIMIT per client address per minute), kept in the
// database so that it holds however many processes and machines serve the site: a fixed window
// of one minute per address, counted in one statement per attempt
// (docs/decisions/031-limits-and-jobs-across-nodes.md).
import { sql } from "drizzle-orm";
import type { Store, ClientRateLimitInfo } from "express-rate-limit";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";

/** How long rows whose window has ended are kept before the sweep deletes them. */
export const SIGN_IN_ATTEMPTS_SWEEP_MS = 10 * 60_000;

interface Counted {
  hits: number;
  resets_at: string | Date;
}

const info = (row: Counted | undefined): ClientRateLimitInfo | undefined =>
  row ? { totalHits: row.hits, resetTime: new Date(row.resets_at) } : undefined;

/**
 * An express-rate-limit store on the sign_in_attempts table. `increment` is one upsert: the first
 * attempt of a window inserts (or restarts an ended window), later ones add one. Two processes
 * counting the same address at once are put one after the other by the row's lock, so no attempt
 * is lost.
 */
export function signInAttemptStore(db: Db): Store {
  let windowSeconds = 60;
  return {
    localKeys: false,
    prefix: "sign-in",
    init(options) {
      windowSeconds = options.windowMs / 1000;
    },
    async get(key) {
      const rows = rowsOf<Counted>(
        await db.execute(sql`select hits, resets_at from sign_in_attempts
          where client = ${key} and resets_at > clock_timestamp()`),
      );
      return info(rows[0]);
    },
    async increment(key) {
      const rows = rowsOf<Counted>(
        await db.execute(sql`
          insert into sign_in_attempts as a (client, hits, resets_at)
          values (${key}, 1, clock_timestamp() + make_interval(secs => ${windowSeconds}))
          on conflict (client) do update set
            hits = case when a.resets_at <= clock_timestamp() then 1 else a.hits + 1 end,
            resets_at = case when a.resets_at <= clock_timestamp()
              then clock_timestamp() + make_interval(secs => ${windowSeconds}) else a.resets_at end
          returning hits, resets_at`),
      );
      return info(rows[0])!;
    },
    async decrement(key) {
      await db.execute(sql`update sign_in_attempts set hits = greatest(hits - 1, 0)
        where client = ${key} and resets_at > clock_timestamp()`);
    },
    async resetKey(key) {
      await db.execute(sql`delete from sign_in_attempts where client = ${key}`);
    },
  };
}

/** Deletes the rows of windows that have ended (a job, app/db/jobs.server.ts); returns how many. */
export async function sweepSignInAttempts(db: Db): Promise<number> {
  const rows = rowsOf<{ client: string }>(
    await db.execute(sql`delete from sign_in_attempts where resets_at <= clock_timestamp()
      returning client`),
  );
  return rows.length;
}
