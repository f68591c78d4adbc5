// The site's own running: backups, scheduled jobs, the app's metadata.
import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The site's backups into its backup folder (BACKUP_DIR: the nightly one and `./ayllu backup`),
 * for the admins' Diagnóstico page: when, how big, whether the copy reached the bucket. A record
 * of this machine's folder, not of the site's content: backups leave it out
 * (server/backup/backup.server.ts).
 */
export const backupRuns = pgTable("backup_runs", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** The file's name inside BACKUP_DIR. */
  file: text("file").notNull(),
  bytes: bigint("bytes", { mode: "number" }),
  /** The s3:// address it was copied to, when object storage is configured and the copy worked. */
  bucketCopy: text("bucket_copy"),
  /** Why it failed (the backup, or only its copy to the bucket). */
  error: text("error"),
});

/**
 * The background jobs run on a timer (session sweep, upload sweep, …): a process runs one only
 * after claiming its next run here, so that one run happens across all processes and machines
 * (docs/decisions/031-limits-and-jobs-across-nodes.md).
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  /** No process may claim a run before this. */
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
  runs: bigint("runs", { mode: "number" }).notNull().default(0),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  /** The process that claimed the last run (host name and process id). */
  lastNode: text("last_node"),
});

/** Demo content is seeded once per database, even if an admin later deletes it. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
