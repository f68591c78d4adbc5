// npm run import -- [--dry-run] [--report ARCHIVO] [--como CORREO] FILE...
// Brings the community's Firebase data (Firestore exports, Firebase Auth export) into the database
// of DATABASE_URL or DATA_DIR, in one transaction. See docs/importar-desde-firebase.md.
import fs from "node:fs";
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import {
  DataDirInUseError,
  openDatabase,
  openEmbedded,
  type Database,
} from "../app/db/client.server";
import {
  importFirebase,
  ImportDatabaseError,
  ImportWouldRemoveAdminsError,
} from "../server/import/import.server";
import {
  ImportFileError,
  NothingToImportError,
  readExportFiles,
} from "../server/import/read-export.server";
import { formatFullReport, formatReport, progressLine } from "../server/import/report.server";
import { sql } from "drizzle-orm";
import { users } from "../app/db/schema.server";

const USAGE =
  "Uso: npm run import -- [--dry-run] [--report ARCHIVO] [--como CORREO] ARCHIVO.json...";

class UsageError extends Error {}

function parseArgs(argv: string[]) {
  let dryRun = false;
  let reportFile: string | null = null;
  let as: string | null = null;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--dry-run") dryRun = true;
    else if (arg === "--report" || arg.startsWith("--report=")) {
      const value = arg === "--report" ? argv[++i] : arg.slice("--report=".length);
      if (!value || value.startsWith("--"))
        throw new UsageError(`--report necesita el archivo donde escribir la lista completa`);
      reportFile = value;
    } else if (arg === "--como" || arg.startsWith("--como=")) {
      const value = arg === "--como" ? argv[++i] : arg.slice("--como=".length);
      if (!value || value.startsWith("--"))
        throw new UsageError("--como necesita el correo del administrador que importa");
      as = value;
    } else if (arg.startsWith("--")) throw new UsageError(`Opción desconocida: ${arg}`);
    else files.push(arg);
  }
  if (files.length === 0) throw new UsageError("Falta al menos un archivo que importar");
  return { dryRun, reportFile, files, as };
}

/**
 * Creates the full report's file now, empty, so that an existing or unwritable path is refused
 * before anything is read or imported. Returns a function that removes it again.
 */
function claimReportFile(file: string): () => void {
  try {
    fs.closeSync(fs.openSync(file, "wx"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportFileError(
      file,
      code === "EEXIST"
        ? "ya existe (--report no sobrescribe: elige otro nombre)"
        : code === "ENOENT"
          ? "la carpeta no existe (--report)"
          : `no se puede escribir ahí (--report, ${code ?? "error desconocido"})`,
    );
  }
  return () => fs.rmSync(file, { force: true });
}

/**
 * A dry run leaves no trace: where the embedded database's folder does not exist yet, it runs on
 * an empty database in memory instead of creating one.
 */
function openFor(config: ReturnType<typeof loadConfig>, dryRun: boolean): Promise<Database> {
  if (dryRun && !config.databaseUrl && !fs.existsSync(config.dataDir)) return openEmbedded(null);
  return openDatabase(config);
}

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  const { dryRun, reportFile, files, as } = args;
  const config = loadConfig(process.env);
  const removeReport = reportFile ? claimReportFile(reportFile) : () => {};
  let database: Database | null = null;
  try {
    // Every file is read and checked before the database is even opened.
    const data = await readExportFiles(files);
    database = await openFor(config, dryRun);
    const tty = process.stdout.isTTY === true;
    const by = as ? await adminByEmail(database, as) : undefined;
    const report = await importFirebase(database.db, data, {
      by,
      timeZone: config.siteTimezone,
      dryRun,
      onProgress: tty ? (p) => process.stdout.write(progressLine(p)) : undefined,
    });
    if (tty) process.stdout.write("\r\x1b[K");
    if (reportFile) fs.writeFileSync(reportFile, `${formatFullReport(report).join("\n")}\n`);
    console.log(formatReport(report, reportFile ?? undefined).join("\n"));
    return 0;
  } catch (error) {
    removeReport();
    throw error;
  } finally {
    await database?.close();
  }
}

/** The admin named by --como, written in the audit log as the one who imported. */
async function adminByEmail(database: Database, email: string) {
  const [member] = await database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  if (!member?.isAdmin)
    throw new UsageError(`${email} no es un administrador de este sitio (--como).`);
  return member;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
    if (error instanceof UsageError) {
      console.error(`Error: ${error.message} No se importó nada.`);
    } else if (error instanceof ImportFileError || error instanceof NothingToImportError) {
      console.error(`Error: ${error.message}. No se importó nada.`);
    } else if (
      error instanceof ImportDatabaseError ||
      error instanceof ImportWouldRemoveAdminsError ||
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
