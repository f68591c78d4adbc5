// The backup chores as commands, for `npm run backup` / `npm run restore` (through tsx) and for
// `node cli.js backup|restore` in the production image (which has no tsx): same code, same messages.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { ConfigError, loadConfig } from "~/kernel/config.server";
import { recordAudit } from "~/audit/audit.server";
import { DatabaseTooNewError, DataDirInUseError, openDatabase } from "~/db/client.server";
import { downloadBackupFile, parseS3Address, uploadBackupFile } from "./bucket.server";
import { checkObjectStore } from "~/uploads/object-storage.server";
import { sitePrivateStorage, siteStorage } from "~/uploads/site-storage.server";
import { listMissing, type NamedFile } from "~/uploads/stored-files.server";
import {
  alreadyThere,
  assertReadable,
  BackupError,
  restoreBackup,
  writeBackup,
} from "./backup.server";
import { backupIntoFolder } from "./folder.server";

export const BACKUP_USAGE =
  "Uso: npm run backup -- [--permitir-faltantes] [--to ARCHIVO | --to - | s3://BUCKET/ARCHIVO]; sin destino, en la carpeta BACKUP_DIR";

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

/** The destination flag: a new file on this machine (never one that exists), or `-` for stdout. */
const TO = "--to";

/** The arguments of `backup`, or null when they do not parse. */
function backupArguments(argv: string[]): { allowMissing: boolean; target?: string } | null {
  let allowMissing = false;
  let target: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === ALLOW_MISSING) allowMissing = true;
    else if (target !== undefined) return null;
    else if (arg === TO) {
      target = argv[++i];
      if (target === undefined || (target.startsWith("-") && target !== "-")) return null;
    } else if (arg.startsWith("-")) return null;
    else target = arg;
  }
  return { allowMissing, target };
}

/**
 * Refuses, before anything is opened, a file a backup cannot become: its folder missing or not
 * writable, or the file already there (a backup never replaces one).
 */
function assertNewFile(file: string): void {
  const dir = path.dirname(path.resolve(file));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new BackupError(
      `No se escribió la copia: la carpeta ${dir} no existe. Créala (mkdir -p ${dir}) o elige otra.`,
    );
  if (fs.existsSync(file) || isLink(file)) throw new BackupError(alreadyThere(file));
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(
      `No se escribió la copia: no se puede escribir en ${dir} (${code === "EROFS" ? "es de solo lectura" : "no hay permiso"}). Elige una carpeta tuya, como tu carpeta personal (~).`,
    );
  }
}

function isLink(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** A path as the operator can paste it after `scp`: quoted when it has more than plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** What to do with a backup file now on this machine: take it away, and restore it elsewhere. */
function takeAwayLines(file: string, env: NodeJS.ProcessEnv): string[] {
  const user = env.SUDO_USER || os.userInfo().username;
  const host = os.hostname();
  const name = path.basename(file);
  return [
    "Para llevarla a tu computadora, corre esto allí (no en este servidor):",
    `  scp ${shellWord(`${user}@${host}:${file}`)} .`,
    `Para restaurarla en un servidor nuevo: instala Ayllu (docs/instalar.md), súbela con scp ${shellWord(name)} USUARIO@SERVIDOR-NUEVO: y allí corre ./ayllu restore ${shellWord(name)} (sin contenedores: npm run restore -- ${shellWord(name)}). Guía: docs/copias.md.`,
  ];
}

/**
 * Writes a backup to a new FILE (`--to FILE`, or FILE alone), to stdout (`--to -`: whole, once
 * written, for `./ayllu backup --to` to take out of its container), to s3://BUCKET/KEY, or (no
 * destination) into BACKUP_DIR with rotation.
 */
export async function backupCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = backupArguments(argv);
  if (!parsed) {
    console.error(BACKUP_USAGE);
    return 2;
  }
  const { allowMissing, target } = parsed;
  const toStdout = target === "-";
  if (toStdout && process.stdout.isTTY)
    throw new BackupError(
      "--to - escribe la copia en la salida estándar, que aquí es la terminal: redirígela a un archivo (> copia.ayllu.gz) o usa --to ARCHIVO.",
    );
  if (target && !toStdout && !target.startsWith("s3://")) assertNewFile(target);
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
  const folder = remote || toStdout ? fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copia-")) : null;
  const file = folder ? path.join(folder, "copia.ayllu.gz") : path.resolve(target);
  // With the backup on stdout, every word for the operator goes to stderr.
  const say = toStdout ? console.error : console.log;
  const database = await openDatabase(config);
  try {
    const header = await writeBackup(
      database.db,
      file,
      database.kind,
      siteStorage(config),
      sitePrivateStorage(config),
      { allowMissing, newFile: !remote && !toStdout },
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
    const bytes = fs.statSync(file).size;
    if (toStdout) await pipeline(fs.createReadStream(file), process.stdout, { end: false });
    const rows = header.tables.reduce((n, t) => n + t.rows, 0);
    say(
      `Copia de seguridad escrita en ${toStdout ? "la salida estándar" : remote ? target : file} (${bytes} bytes): ${rows} filas de ${header.tables.length} tablas y ${header.files} archivos (imágenes y archivos privados).`,
    );
    if (toStdout) return 0;
    for (const t of header.tables) say(`  ${t.name}: ${t.rows}`);
    if (!remote) for (const line of takeAwayLines(file, env)) say(line);
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
