// The site's scheduled jobs, all in one list (decision 031): each run is claimed in the database,
// so that one process of all those serving the site does it (app/db/jobs.server.ts). The mail
// worker keeps its own loop (app/mail/worker.server.ts), and queues the reminders that are due.
import os from "node:os";
import type { Config } from "~/kernel/config.server";
import { deleteExpiredSessions } from "~/members/session.server";
import { SIGN_IN_ATTEMPTS_SWEEP_MS, sweepSignInAttempts } from "~/members/sign-in-limit.server";
import { backupIntoFolder, hourIn } from "../backup/folder.server";
import { listMissing } from "~/uploads/stored-files.server";
import { startClaimedJob, type ClaimedJob } from "~/db/jobs.server";
import { onUpgradeTrial, prunePreviousDataCopy } from "~/kernel/upgrade-trial.server";
import { pruneAudit } from "~/audit/audit.server";
import type { Database } from "~/db/client.server";
import { sweepUploads } from "~/uploads/upload.server";
import { siteStorage, sitePrivateStorage } from "~/uploads/site-storage.server";
import { expireHolds, HOLD_EXPIRY_MS } from "~/hold-expiry.server";
import { pruneReceipts, RECEIPT_PRUNE_MS } from "~/payments/payment.server";

/** How often the embedded database is vacuumed and analysed while the server runs. */
const MAINTENANCE_MS = 60 * 60 * 1000;

/** How often audit entries past AUDIT_RETENTION_DAYS are removed. */
const AUDIT_PRUNE_MS = 24 * 60 * 60 * 1000;
/** The least time between two nightly backups: one a night, whatever the clocks do. */
const NIGHTLY_BACKUP_GAP_MS = 20 * 60 * 60 * 1000;
/** A nightly backup that failed is tried again this long after, while its hour lasts. */
export const NIGHTLY_BACKUP_RETRY_MS = 10 * 60 * 1000;

/** How often an upgrade's copy of the data folder is looked at (removed a day after the upgrade). */
const PREVIOUS_COPY_PRUNE_MS = 60 * 60 * 1000;

/** How often uploads that no form saved are looked for (and removed past their grace period). */
const UPLOAD_SWEEP_MS = 60 * 60 * 1000;

/**
 * Starts the jobs on a timer, each claimed in the database (app/db/jobs.server.ts): expired
 * sessions, the sign-in limit's ended windows, unsaved uploads and, for the embedded database
 * (one process), its maintenance. Returns how to stop them all.
 */
export function startJobs(
  database: Database,
  config: Config,
  now: () => Date,
): () => Promise<void> {
  const { db } = database;
  const storage = siteStorage(config);
  const jobs: ClaimedJob[] = [
    {
      name: "sessions-sweep",
      everyMs: config.sessionSweepMs,
      run: () => deleteExpiredSessions(db),
      failure: "No se pudieron borrar las sesiones vencidas:",
    },
    {
      name: "sign-in-attempts-sweep",
      everyMs: SIGN_IN_ATTEMPTS_SWEEP_MS,
      run: () => sweepSignInAttempts(db),
      failure: "No se pudieron borrar los intentos de inicio de sesión pasados:",
    },
    {
      // One run per store: a folder is one machine's (its processes share it), so each machine
      // sweeps its own; a bucket is the site's, swept by one process of all.
      name: `uploads-sweep:${storage.identity}`,
      everyMs: UPLOAD_SWEEP_MS,
      run: () => sweepUploads(db, storage, now()),
      failure: "No se pudieron revisar las imágenes subidas:",
    },
    {
      // Places held for a payment that ran out go to the waiting list (decision 048).
      name: "payment-holds-expiry",
      everyMs: HOLD_EXPIRY_MS,
      run: () => expireHolds(db, now()),
      failure: "No se pudieron liberar las plazas reservadas vencidas:",
    },
    {
      // Receipts are kept RECEIPT_RETENTION_DAYS after their event ends (decision 048).
      name: "receipts-prune",
      everyMs: RECEIPT_PRUNE_MS,
      run: () =>
        pruneReceipts(db, sitePrivateStorage(config), config.receiptRetentionDays, now()).then(
          () => undefined,
        ),
      failure: "No se pudieron quitar los comprobantes vencidos:",
    },
  ];
  // The audit log keeps everything unless AUDIT_RETENTION_DAYS says otherwise (decision 039).
  if (config.auditRetentionDays !== null) {
    const days = config.auditRetentionDays;
    jobs.push({
      name: "audit-prune",
      everyMs: AUDIT_PRUNE_MS,
      run: () => pruneAudit(db, days, now()).then(() => undefined),
      failure: "No se pudo recortar el registro de auditoría:",
    });
  }
  const maintain = database.maintain;
  // The embedded database has no autovacuum: it is vacuumed and analysed at start and every hour
  // (docs/decisions/015-page-cache.md).
  if (maintain)
    jobs.push({
      name: "embedded-maintenance",
      everyMs: MAINTENANCE_MS,
      run: maintain,
      failure: "No se pudo hacer el mantenimiento de la base de datos:",
    });
  // The nightly backup into BACKUP_DIR, at BACKUP_HOUR in the site's time zone, by one process.
  const backups = config.backups;
  if (backups)
    jobs.push({
      name: "nightly-backup",
      everyMs: NIGHTLY_BACKUP_GAP_MS,
      due: () => hourIn(now(), config.siteTimezone) === backups.hour,
      run: async () => {
        const run = await backupIntoFolder(db, database.kind, { ...config, backups }, now);
        if (run.missing.length > 0)
          console.warn(
            `La copia nocturna ${run.file} se hizo sin archivos que la base de datos nombra (BACKUP_ALLOW_MISSING=1): ${listMissing(run.missing)}.`,
          );
        // With several nodes only the bucket has every night's copy: one that did not reach it
        // is made again at the next retry (the folder's rotation keeps the newest of the day).
        if (config.objectStore && !run.bucketCopy)
          throw new Error(run.error ?? "sin copia en el bucket");
      },
      retryMs: NIGHTLY_BACKUP_RETRY_MS,
      failure: `No se pudo hacer la copia de seguridad nocturna (se intenta otra vez en ${NIGHTLY_BACKUP_RETRY_MS / 60_000} minutos, dentro de esa hora):`,
    });
  // The small site's copy of its data folder from the last upgrade, once it is a day old. Each
  // machine its own folder.
  jobs.push({
    name: `previous-copy-prune:${os.hostname()}:${config.dataDir}`,
    everyMs: PREVIOUS_COPY_PRUNE_MS,
    run: () => prunePreviousDataCopy(config.dataDir, now()),
    failure: "No se pudo quitar la copia de la carpeta de datos de la última actualización:",
  });
  // An upgrade's trial run runs no job until the upgrade keeps it (app/kernel/upgrade-trial.server.ts).
  const stops = jobs.map((job) =>
    startClaimedJob(db, {
      ...job,
      due: () => !onUpgradeTrial(config.dataDir) && (job.due?.() ?? true),
    }),
  );
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
