// npm run backup -- FILE | s3://BUCKET/KEY
// Writes everything in the database of DATABASE_URL or DATA_DIR, and every photo wherever it is
// kept (the folder or the bucket), into one file (gzip-compressed); to s3://… it is written to a
// temporary file first and sent to the bucket once whole, with the site's S3_* settings.
// With the embedded database, stop the server first (the data folder is open in one process only).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { DataDirInUseError, openDatabase } from "../app/db/client.server";
import { BackupError, writeBackup } from "../server/backup/backup.server";
import {
  checkObjectStore,
  parseS3Address,
  siteStorage,
  uploadBackupFile,
} from "../app/uploads/storage.server";

const USAGE = "Uso: npm run backup -- ARCHIVO (o s3://BUCKET/ARCHIVO)";

async function main(argv: string[]): Promise<number> {
  const [target, ...rest] = argv;
  if (!target || target.startsWith("--") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
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
    const header = await writeBackup(database.db, file, database.kind, siteStorage(config));
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
      `Copia de seguridad escrita en ${target}: ${rows} filas de ${header.tables.length} tablas y ${header.files} imágenes.`,
    );
    for (const t of header.tables) console.log(`  ${t.name}: ${t.rows}`);
    return 0;
  } finally {
    await database.close();
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
