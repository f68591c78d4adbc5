// npm run import -- [--dry-run] FILE...
// Brings the community's Firebase data (Firestore exports, Firebase Auth export) into the database
// of DATABASE_URL or DATA_DIR, in one transaction. See "Traer los datos desde Firebase" in README.
import { ConfigError, loadConfig } from "../server/config.server";
import { DataDirInUseError, openDatabase } from "../server/db/client.server";
import { importFirebase, ImportDatabaseError } from "../server/import/import.server";
import { ImportFileError, readExportFiles } from "../server/import/read-export.server";
import { formatReport, progressLine } from "../server/import/report.server";

const USAGE = "Uso: npm run import -- [--dry-run] ARCHIVO.json...";

async function main(argv: string[]): Promise<number> {
  const dryRun = argv.includes("--dry-run");
  const files = argv.filter((a) => a !== "--dry-run");
  const unknown = files.find((a) => a.startsWith("--"));
  if (unknown || files.length === 0) {
    console.error(unknown ? `Opción desconocida: ${unknown}\n${USAGE}` : USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  // Every file is read and checked before the database is even opened.
  const data = await readExportFiles(files);
  const database = await openDatabase(config);
  const tty = process.stdout.isTTY === true;
  try {
    const report = await importFirebase(database.db, data, {
      timeZone: config.siteTimezone,
      dryRun,
      onProgress: tty ? (p) => process.stdout.write(progressLine(p)) : undefined,
    });
    if (tty) process.stdout.write("\r\x1b[K");
    console.log(formatReport(report).join("\n"));
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
    if (error instanceof ImportFileError) {
      console.error(`Error: ${error.message}. No se importó nada.`);
    } else if (
      error instanceof ImportDatabaseError ||
      error instanceof ConfigError ||
      error instanceof DataDirInUseError
    ) {
      console.error(`Error: ${error.message}`);
    } else {
      console.error(
        `Error inesperado: ${error instanceof Error ? error.message : String(error)}. No se importó nada.`,
      );
    }
    process.exit(1);
  },
);
