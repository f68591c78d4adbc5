// npm run restore -- [--force] FILE | s3://BUCKET/KEY
// Loads a backup into the database of DATABASE_URL or DATA_DIR (a new data folder is created and
// migrated), and its photos into the site's store (the folder, or the bucket with S3_*), whichever
// kind of store the backup came from. From s3://… the file is fetched whole first. A database that
// holds anything is refused unless --force, which replaces it all.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { DataDirInUseError, openDatabase } from "../app/db/client.server";
import { assertReadable, BackupError, restoreBackup } from "../server/backup/backup.server";
import { recordAudit } from "../app/audit/audit.server";
import {
  checkObjectStore,
  downloadBackupFile,
  parseS3Address,
  siteStorage,
} from "../app/uploads/storage.server";

const USAGE = "Uso: npm run restore -- [--force] ARCHIVO (o s3://BUCKET/ARCHIVO)";

async function main(argv: string[]): Promise<number> {
  const force = argv.includes("--force");
  const args = argv.filter((a) => a !== "--force");
  const [source, ...rest] = args;
  if (!source || source.startsWith("--") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof BackupError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError
    ) {
      console.error(`Error: ${error.message}`);
    } else {
      console.error(`Error inesperado: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.exit(1);
  },
);
