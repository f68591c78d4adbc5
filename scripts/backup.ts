// npm run backup -- FILE
// Writes everything in the database of DATABASE_URL or DATA_DIR into one file (gzip-compressed).
// With the embedded database, stop the server first (the data folder is open in one process only).
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { DataDirInUseError, openDatabase } from "../app/db/client.server";
import { BackupError, writeBackup } from "../server/backup/backup.server";
import { checkObjectStore, siteStorage } from "../app/uploads/storage.server";

const USAGE = "Uso: npm run backup -- ARCHIVO";

async function main(argv: string[]): Promise<number> {
  const [file, ...rest] = argv;
  if (!file || file.startsWith("--") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config);
  try {
    if (config.objectStore) await checkObjectStore(config.objectStore, { log: console.log });
    const header = await writeBackup(database.db, file, database.kind, siteStorage(config));
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `Copia de seguridad escrita en ${file}: ${rows} filas de ${header.tables.length} tablas y ${header.files} imágenes.`,
    );
    for (const t of header.tables) console.log(`  ${t.name}: ${t.rows}`);
    return 0;
  } finally {
    await database.close();
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
