// The backup chores as commands, for `npm run backup` / `npm run restore` (through tsx) and for
// `node cli.js backup|restore` in the production image (which has no tsx): same code, same messages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "~/kernel/config.server";
import { recordAudit } from "~/audit/audit.server";
import { DatabaseTooNewError, DataDirInUseError, openDatabase } from "~/db/client.server";
import { downloadBackupFile, parseS3Address, uploadBackupFile } from "./bucket.server";
import { checkObjectStore } from "~/uploads/object-storage.server";
import { sitePrivateStorage, siteStorage } from "~/uploads/site-storage.server";
import { listMissing, type NamedFile } from "~/uploads/stored-files.server";
import { assertReadable, BackupError, restoreBackup, writeBackup } from "./backup.server";
import { backupIntoFolder } from "./folder.server";

export const BACKUP_USAGE =
  "Uso: npm run backup -- [--permitir-faltantes] ARCHIVO (o s3://BUCKET/ARCHIVO); sin ARCHIVO, en la carpeta BACKUP_DIR";

/** Asks for a backup even when rows name files the stores lack (decision 062). */
const ALLOW_MISSING = "--permitir-faltantes";

/** The line a backup made without some files prints, and a restore of it. */
function missingWarning(missing: readonly NamedFile[], made: boolean): string {
  const n = missing.length;
  const files = n === 1 ? "1 archivo" : `${n} archivos`;
  return made
    ? `Aviso: la copia se hizo sin ${files} que la base de datos nombra (pedido con ${ALLOW_MISSING}): ${listMissing(missing)}.`
    : `Aviso: la copia se hizo sin ${files} que la base de datos nombra; quedan sin archivo tras restaurar: ${listMissing(missing)}.`;
}
export const RESTORE_USAGE = "Uso: npm run restore -- [--force] ARCHIVO (o s3://BUCKET/ARCHIVO)";

/** Writes a backup to FILE, s3://BUCKET/KEY, or (no argument) into BACKUP_DIR with rotation. */
export async function backupCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const allowMissing = argv.includes(ALLOW_MISSING);
  const [target, ...rest] = argv.filter((a) => a !== ALLOW_MISSING);
  if (target?.startsWith("--") || rest.length > 0) {
    console.error(BACKUP_USAGE);
    return 2;
  }
  const config = loadConfig(env);
  if (!target) {
    if (!config.backups) {
      console.error(`${BACKUP_USAGE}. BACKUP_DIR no está configurada.`);
      return 2;
    }
    const backups = config.backups;
    const database = await openDatabase(config);
    try {
      const run = await backupIntoFolder(
        database.db,
        database.kind,
        { ...config, backups },
        () => new Date(),
        allowMissing,
      );
      if (run.missing.length > 0) console.error(missingWarning(run.missing, true));
      console.log(
        `Copia de seguridad escrita en ${path.join(backups.dir, run.file)} (${run.bytes} bytes)` +
          (run.bucketCopy ? ` y copiada a ${run.bucketCopy}.` : "."),
      );
      if (run.error) console.error(run.error);
      return run.error ? 1 : 0;
    } finally {
      await database.close();
    }
  }
  const remote = target.startsWith("s3://") ? parseS3Address(target) : null;
  if (target.startsWith("s3://") && !remote)
    throw new BackupError(`${target} no es una dirección s3://BUCKET/ARCHIVO válida.`);
  if (remote && !config.objectStore)
    throw new BackupError(
      `Para escribir en ${target} configura el almacén de objetos (S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).`,
    );
  if (config.objectStore) await checkObjectStore(config.objectStore, { log: console.log });
  const folder = remote ? fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copia-")) : null;
  const file = folder ? path.join(folder, "copia.ayllu.gz") : target;
  const database = await openDatabase(config);
  try {
    const header = await writeBackup(
      database.db,
      file,
      database.kind,
      siteStorage(config),
      sitePrivateStorage(config),
      { allowMissing },
    );
    if (header.missing) console.error(missingWarning(header.missing, true));
    if (remote) {
      try {
        await uploadBackupFile(config.objectStore!, file, remote);
      } catch (error) {
        throw new BackupError(
          `No se pudo enviar la copia a ${target}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `Copia de seguridad escrita en ${target}: ${rows} filas de ${header.tables.length} tablas y ${header.files} archivos (imágenes y archivos privados).`,
    );
    for (const t of header.tables) console.log(`  ${t.name}: ${t.rows}`);
    return 0;
  } finally {
    await database.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Loads a backup (a file or s3://…) into the site's database and store; --force replaces. */
export async function restoreCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const force = argv.includes("--force");
  const args = argv.filter((a) => a !== "--force");
  const [source, ...rest] = args;
  if (!source || source.startsWith("--") || rest.length > 0) {
    console.error(RESTORE_USAGE);
    return 2;
  }
  const config = loadConfig(env);
  const remote = source.startsWith("s3://") ? parseS3Address(source) : null;
  if (source.startsWith("s3://") && !remote)
    throw new BackupError(`${source} no es una dirección s3://BUCKET/ARCHIVO válida.`);
  if (remote && !config.objectStore)
    throw new BackupError(
      `Para leer ${source} configura el almacén de objetos (S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).`,
    );
  if (config.objectStore) await checkObjectStore(config.objectStore, { log: console.log });
  const folder = remote ? fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-restaurar-")) : null;
  try {
    const file = folder ? path.join(folder, "copia.ayllu.gz") : source;
    if (remote) {
      try {
        await downloadBackupFile(config.objectStore!, remote, file);
      } catch (error) {
        throw new BackupError(
          `No se pudo leer ${source}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    assertReadable(file);
    const database = await openDatabase(config);
    try {
      const counts = await restoreBackup(database.db, file, {
        force,
        uploads: siteStorage(config),
        privateFiles: sitePrivateStorage(config),
        onMissing: (missing) => console.error(missingWarning(missing, false)),
      });
      const rows = Object.values(counts).reduce((n, c) => n + c, 0);
      // After it finished, in the restored database: the entries before it are the backup's.
      await recordAudit(database.db, {
        actor: { system: "Restauración" },
        role: "system",
        action: "restore",
        itemKind: "site",
        summary: `Restauró la copia ${path.basename(source)} (${rows} filas)`,
      });
      console.log(`Copia restaurada en ${database.location}: ${rows} filas.`);
      for (const [table, n] of Object.entries(counts)) console.log(`  ${table}: ${n}`);
      return 0;
    } finally {
      await database.close();
    }
  } finally {
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs a command and turns the errors a person can act on into one line; the exit code. */
export async function runCommand(
  command: (argv: string[], env: NodeJS.ProcessEnv) => Promise<number>,
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  try {
    return await command(argv, env);
  } catch (error) {
    if (
      error instanceof BackupError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError ||
      error instanceof DatabaseTooNewError
    ) {
      console.error(`Error: ${error.message}`);
    } else {
      console.error(`Error inesperado: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 1;
  }
}
