// npm run restore -- [--force] FILE
// Loads a backup into the database of DATABASE_URL or DATA_DIR (a new data folder is created and
// migrated). A database that holds anything is refused unless --force, which replaces it all.
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { DataDirInUseError, openDatabase } from "../app/db/client.server";
import { assertReadable, BackupError, restoreBackup } from "../server/backup/backup.server";
import { checkObjectStore, siteStorage } from "../app/uploads/storage.server";

const USAGE = "Uso: npm run restore -- [--force] ARCHIVO";

async function main(argv: string[]): Promise<number> {
  const force = argv.includes("--force");
  const args = argv.filter((a) => a !== "--force");
  const [file, ...rest] = args;
  if (!file || file.startsWith("--") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  assertReadable(file);
  const database = await openDatabase(config);
  try {
    if (config.objectStore) await checkObjectStore(config.objectStore, { log: console.log });
    const counts = await restoreBackup(database.db, file, { force, uploads: siteStorage(config) });
    const rows = Object.values(counts).reduce((n, c) => n + c, 0);
    console.log(`Copia restaurada en ${database.location}: ${rows} filas.`);
    for (const [table, n] of Object.entries(counts)) console.log(`  ${table}: ${n}`);
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
