// The site's own backups into a folder (BACKUP_DIR, a volume of its own in compose.yaml): the
// nightly one, and `./ayllu backup`. Each is one file of `writeBackup`, kept by rotation (the
// newest of each of the last BACKUP_KEEP_DAILY days and of the BACKUP_KEEP_WEEKLY weeks before),
// copied to the bucket when object storage is configured (where the same rotation keeps the
// copies of every node), and recorded in backup_runs for the admins' Diagnóstico page
// (docs/decisions/037-diagnostics-and-backup-records.md, 073-copies-leave-the-server.md).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { backupRuns } from "~/db/schema.server";
import type { BackupSettings, Config } from "~/kernel/config.server";
import { deleteBackupCopies, listBackupCopies, uploadBackupFile } from "./bucket.server";
import { sitePrivateStorage, siteStorage } from "~/uploads/site-storage.server";
import type { NamedFile } from "~/uploads/stored-files.server";
import { writeBackup } from "./backup.server";

export type BackupRun = typeof backupRuns.$inferSelect;

const FILE_NAME = /^ayllu-(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})Z\.ayllu\.gz$/;

/** The file name of a backup made at `at`: sortable, in UTC. */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").slice(0, 15);
  return `ayllu-${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 15)}Z.ayllu.gz`;
}

/** The Monday (UTC) of the week of `day` (YYYY-MM-DD): the week a backup counts for. */
function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
}

/** Where the nightly copies go in the bucket (its private bucket if any: copies hold everyone's data). */
export const BUCKET_COPIES_PREFIX = "copias/";

/**
 * Of the backup files `names` (other names are left alone), those to delete: all but the newest
 * of each of the newest `keepDaily` days, and of each of the `keepWeekly` weeks before those. The
 * one rule for the folder and for the copies in the bucket.
 */
export function backupsToDelete(
  names: string[],
  keep: Pick<BackupSettings, "keepDaily" | "keepWeekly">,
): string[] {
  const ours = names.filter((name) => FILE_NAME.test(name)).sort((a, b) => (a < b ? 1 : -1));
  const kept = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  let weekly = 0;
  for (const name of ours) {
    const [, y, m, d] = FILE_NAME.exec(name)!;
    const day = `${y}-${m}-${d}`;
    const week = weekOf(day);
    if (days.has(day)) continue;
    if (days.size < keep.keepDaily) {
      days.add(day);
      weeks.add(week);
      kept.add(name);
    } else if (!weeks.has(week) && weekly < keep.keepWeekly) {
      weeks.add(week);
      weekly++;
      kept.add(name);
    }
  }
  return ours.filter((name) => !kept.has(name));
}

/**
 * Writes a backup into the folder, rotates the folder, copies the file to the bucket when the
 * site has one (its private bucket if any: copies hold everyone's data), and records it all. A
 * failure is recorded too, then thrown. Files the rows name and the stores lack fail it, unless
 * `allowMissing` (BACKUP_ALLOW_MISSING for the nightly one, --permitir-faltantes by hand): then
 * the copy lists them, and so does the answer.
 */
export async function backupIntoFolder(
  db: Db,
  kind: "embedded" | "postgres",
  config: Pick<Config, "uploadsDir" | "privateDir" | "objectStore"> & { backups: BackupSettings },
  now: () => Date = () => new Date(),
  allowMissing = config.backups.allowMissing,
): Promise<BackupRun & { missing: NamedFile[] }> {
  const { dir } = config.backups;
  const startedAt = now();
  const name = backupFileName(startedAt);
  const id = randomUUID();
  await db.insert(backupRuns).values({ id, startedAt, file: name });
  const target = path.join(dir, name);
  const partial = `${target}.parcial`;
  let missing: NamedFile[] = [];
  try {
    fs.mkdirSync(dir, { recursive: true });
    const header = await writeBackup(
      db,
      partial,
      kind,
      siteStorage(config),
      sitePrivateStorage(config),
      { allowMissing },
    );
    missing = header.missing ?? [];
    fs.renameSync(partial, target);
  } catch (error) {
    try {
      fs.rmSync(partial, { force: true });
    } catch {
      // The folder itself is not usable (the error recorded below says why).
    }
    await db
      .update(backupRuns)
      .set({ finishedAt: now(), error: messageOf(error) })
      .where(eq(backupRuns.id, id));
    throw error;
  }
  const bytes = fs.statSync(target).size;
  for (const old of backupsToDelete(fs.readdirSync(dir), config.backups))
    fs.rmSync(path.join(dir, old), { force: true });
  let bucketCopy: string | null = null;
  let error: string | null = null;
  if (config.objectStore) {
    const where = {
      bucket: config.objectStore.privateBucket ?? config.objectStore.bucket,
      prefix: BUCKET_COPIES_PREFIX,
    };
    try {
      await uploadBackupFile(config.objectStore, target, {
        bucket: where.bucket,
        key: `${where.prefix}${name}`,
      });
      bucketCopy = `s3://${where.bucket}/${where.prefix}${name}`;
    } catch (failure) {
      error = `La copia se guardó en la carpeta, pero no se pudo enviar al bucket: ${messageOf(failure)}`;
    }
    if (bucketCopy) {
      try {
        const names = await listBackupCopies(config.objectStore, where);
        await deleteBackupCopies(config.objectStore, where, backupsToDelete(names, config.backups));
      } catch (failure) {
        error = `La copia está en el bucket, pero no se pudieron borrar las copias viejas del bucket (se intenta otra vez con la próxima copia): ${messageOf(failure)}`;
      }
    }
  }
  const [run] = await db
    .update(backupRuns)
    .set({ finishedAt: now(), bytes, bucketCopy, error })
    .where(eq(backupRuns.id, id))
    .returning();
  return { ...run!, missing };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The hour of `at` in `timeZone` (0–23). */
export function hourIn(at: Date, timeZone: string): number {
  const hour = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" })
    .formatToParts(at)
    .find((part) => part.type === "hour")?.value;
  return Number(hour);
}
