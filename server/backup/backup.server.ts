// npm run backup / npm run restore: one file with everything, from and to either database kind.
//
// The file is gzip-compressed JSON Lines (docs/decisions/012-backup-format.md): a header line,
// then one line per row ({"table", "row"}) in foreign-key order, then the uploaded images as
// {"file", "size", "data"} lines announced by the header (uploads/<name> for photos, privado/<name>
// for private files: the bank's QR, receipts); readers skip kinds they do not know.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { PUBLICATIONS_CHANNEL } from "~/db/notify.server";
import { rowsOf } from "~/db/rows.server";
import {
  PRIVATE_FILE_NAME,
  type PrivateStorage,
  type UploadStaging,
  type UploadStorage,
} from "~/uploads/storage.server";
import {
  missingOf,
  missingSentence,
  namedFiles,
  PRIVATE_PREFIX,
  UPLOADS_PREFIX,
  type NamedFile,
} from "~/uploads/stored-files.server";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import { EVENT_DEFAULT_HOURS } from "~/kernel/limits";
import { CHECK_INS_AS_ATTENDANCE } from "~/attendance/event-session-attendance.server";

const BACKUP_FORMAT = "ayllu-backup";
const BACKUP_VERSION = 1;

interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  source: "embedded" | "postgres";
  /** The migrations the source database had applied, by name. */
  migrations: string[];
  tables: { name: string; columns: string[]; rows: number }[];
  /** Uploaded files that follow the rows. */
  files: number;
  /**
   * Files the rows name that the stores did not have when the backup was made, asked for with
   * --permitir-faltantes (decision 062); absent in older backups and when nothing was missing.
   */
  missing?: NamedFile[];
}

/** A backup that cannot be written or restored; nothing was changed. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** A backup refused because the rows name files the stores lack; nothing was written. */
export class MissingFilesError extends BackupError {
  constructor(
    readonly missing: NamedFile[],
    where: string[],
  ) {
    super(
      `${missingSentence(missing)} No se escribió la copia. Revisa que UPLOADS_DIR, PRIVATE_DIR y S3_* sean los del servidor (se buscó en ${where.join(" y ")}). Para hacer la copia sin ellos, pídelo expresamente: --permitir-faltantes (npm run backup, ./ayllu backup) o BACKUP_ALLOW_MISSING=1 (la copia nocturna); la copia los listará.`,
    );
  }
}

const ROWS_PER_INSERT = 1000;

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Tables of the processes' coordination, not of the site: which process last ran each job and the
 * sign-in attempts of the current minute (docs/decisions/031-limits-and-jobs-across-nodes.md),
 * and the sign-in links of the last 15 minutes, short-lived credentials that a restore must never
 * bring back (docs/decisions/034-sign-in-by-link.md). They mean nothing to another database, a
 * server writes them as soon as it starts, and they hold nobody's data: a backup leaves them out,
 * and they never make a database "not empty". So is the record of the backups into this machine's
 * backup folder (backup_runs): a restored database must not claim files another folder holds.
 */
const COORDINATION_TABLES = new Set([
  "scheduled_jobs",
  "sign_in_attempts",
  "sign_in_links",
  "backup_runs",
]);

/** The site's tables (schema public, but for COORDINATION_TABLES), parents before children. */
async function tablesInOrder(db: Db): Promise<{ name: string; columns: string[] }[]> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public'
      order by table_name, ordinal_position`),
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) {
    const list = byTable.get(c.table_name) ?? [];
    list.push(c.column_name);
    byTable.set(c.table_name, list);
  }
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`),
  );
  const unquote = (name: string) => name.replace(/^"|"$/g, "").replace(/^public\./, "");
  const parents = new Map<string, Set<string>>();
  for (const e of edges) {
    const child = unquote(e.child);
    const parent = unquote(e.parent);
    if (child === parent) continue;
    const set = parents.get(child) ?? new Set();
    set.add(parent);
    parents.set(child, set);
  }
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent);
    visiting.delete(name);
    ordered.push(name);
  };
  for (const name of [...byTable.keys()].sort()) visit(name);
  return ordered
    .filter((n) => byTable.has(n) && !COORDINATION_TABLES.has(n))
    .map((name) => ({ name, columns: byTable.get(name)! }));
}

async function appliedMigrations(db: Db): Promise<string[]> {
  try {
    const rows = rowsOf<{ hash: string }>(
      await db.execute(sql`select hash from drizzle.__drizzle_migrations order by id`),
    );
    return rows.map((r) => r.hash);
  } catch {
    return [];
  }
}

/**
 * Writes every row of every table to `file` (replaced only once complete; with `newFile`, a file
 * that exists is refused instead, and the new one is readable by its owner only), with every file
 * of the stores given. A file some row names that a given store lacks fails the backup with
 * MissingFilesError, unless `allowMissing`: then the header lists it under `missing`.
 */
export async function writeBackup(
  db: Db,
  file: string,
  source: BackupHeader["source"],
  uploads?: UploadStorage,
  privateFiles?: PrivateStorage,
  options: { allowMissing?: boolean; newFile?: boolean } = {},
): Promise<BackupHeader> {
  const tables = await tablesInOrder(db);
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    source,
    migrations: await appliedMigrations(db),
    tables: [],
    files: 0,
  };
  // One consistent snapshot of every table, even while a server keeps writing.
  const lines: string[] = [];
  let named: NamedFile[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    for (const table of tables) {
      const rows = rowsOf<{ row: string }>(
        await tx.execute(
          sql.raw(`select row_to_json(t)::text as row from ${quoteIdent(table.name)} t`),
        ),
      );
      header.tables.push({ name: table.name, columns: table.columns, rows: rows.length });
      for (const { row } of rows)
        lines.push(`{"table":${JSON.stringify(table.name)},"row":${row}}`);
    }
    // In the same snapshot as the rows: the files these very rows name.
    named = await namedFiles(tx);
  });
  // Files are named by content: one listed here and removed before it is read is skipped.
  const fileLines: string[] = [];
  const copied = new Set<string>();
  const stores: Array<[string, Pick<UploadStorage, "list" | "read" | "has" | "location">]> = [];
  if (uploads) stores.push([UPLOADS_PREFIX, uploads]);
  if (privateFiles) stores.push([PRIVATE_PREFIX, privateFiles]);
  for (const [prefix, store] of stores) {
    for (const name of (await store.list()).map((f) => f.name).sort()) {
      // Skipped only when it is gone; a store that fails (a bucket away) fails the backup, which
      // always carries every file.
      const data = await store.read(name).catch(async (error: unknown) => {
        if (await store.has(name).catch(() => true)) throw error;
        return null;
      });
      if (data) copied.add(`${prefix}${name}`);
      if (data)
        fileLines.push(
          JSON.stringify({
            file: `${prefix}${name}`,
            size: data.length,
            data: data.toString("base64"),
          }),
        );
    }
  }
  header.files = fileLines.length;
  const missing = missingOf(
    named.filter((n) => (n.file.startsWith(UPLOADS_PREFIX) ? uploads : privateFiles)),
    copied,
  );
  if (missing.length > 0) {
    if (!options.allowMissing)
      throw new MissingFilesError(
        missing,
        stores.map(([, store]) => store.location),
      );
    header.missing = missing;
  }
  const partial = path.join(
    path.dirname(path.resolve(file)),
    `.${path.basename(file)}.${process.pid}.tmp`,
  );
  try {
    async function* content() {
      yield `${JSON.stringify(header)}\n`;
      for (const line of lines) yield `${line}\n`;
      for (const line of fileLines) yield `${line}\n`;
    }
    // A new file for the operator is theirs only: it holds everyone's data.
    const mode = options.newFile ? 0o600 : 0o666;
    await pipeline(content, zlib.createGzip(), fs.createWriteStream(partial, { mode }));
    if (options.newFile) putInPlace(partial, file);
    else fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(
      `No se pudo escribir ${file}: ${code === "ENOENT" ? "la carpeta no existe" : code === "EACCES" ? "no hay permiso" : String((error as Error).message)}`,
    );
  }
  return header;
}

/**
 * Moves a whole `partial` to `file` unless `file` exists: a hard link fails on an existing name in
 * the same step that makes it (a filesystem without hard links gets a look first, then rename).
 */
function putInPlace(partial: string, file: string): void {
  try {
    fs.linkSync(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new BackupError(alreadyThere(file));
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
    if (fs.existsSync(file)) throw new BackupError(alreadyThere(file));
    fs.renameSync(partial, file);
    return;
  }
  fs.rmSync(partial, { force: true });
}

/** The refusal of a backup onto a file that exists. */
export function alreadyThere(file: string): string {
  return `${file} ya existe y no se sobrescribe: elige otro nombre, o bórralo antes (rm ${file}) si ya no lo necesitas.`;
}

function parseHeader(line: string | undefined, file: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line ?? "") as Partial<BackupHeader>;
  } catch {
    throw new BackupError(`${file} no es una copia de seguridad de Ayllu.`);
  }
  if (header?.format !== BACKUP_FORMAT || !Array.isArray(header.tables)) {
    throw new BackupError(`${file} no es una copia de seguridad de Ayllu.`);
  }
  if (typeof header.version !== "number" || header.version > BACKUP_VERSION) {
    throw new BackupError(
      `${file} es de una versión más nueva de Ayllu (formato ${String(header.version)}); actualiza Ayllu antes de restaurarla.`,
    );
  }
  return header as BackupHeader;
}

/**
 * Required columns added after backups were first made, with the value a row of an older backup
 * (whose header does not list the column) gets, as SQL over the row's other columns.
 */
const FILLED_WHEN_MISSING: Record<string, Record<string, string>> = {
  // Every event has an end (decision 030): the default, its start + 2 hours.
  events: { ends_at: `"starts_at" + interval '${EVENT_DEFAULT_HOURS} hours'` },
};

/** Row counts of every table of `db` that has any. */
/**
 * Rows a server writes by itself on start, which hold no one's data: the landing sections'
 * defaults (decision 023) until an admin saves a section. They do not make a database "not
 * empty", and a backup that has the table replaces them.
 */
const DEFAULT_ROWS: Record<string, string> = { site_content: "edited_at is null" };

async function nonEmptyTables(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await tablesInOrder(db)) {
    const defaults = DEFAULT_ROWS[table.name];
    const [row] = rowsOf<{ n: number }>(
      await db.execute(
        sql.raw(
          `select count(*)::int as n from ${quoteIdent(table.name)}${defaults ? ` where not (${defaults})` : ""}`,
        ),
      ),
    );
    if (row && row.n > 0) out[table.name] = row.n;
  }
  return out;
}

/**
 * Writes one private file of a backup (the bank's QR, a receipt) into the private store, after
 * checking its name and size; returns its name when the store did not have it (to be removed
 * again if the restore fails). Named by content: one the store has is the same file.
 */
async function restorePrivateFile(
  entry: { file?: unknown; size?: unknown; data?: unknown },
  file: string,
  privateFiles: PrivateStorage | undefined,
): Promise<string | null> {
  const name = String(entry.file).slice(PRIVATE_PREFIX.length);
  const data = typeof entry.data === "string" ? Buffer.from(entry.data, "base64") : null;
  if (!PRIVATE_FILE_NAME.test(name) || !data || data.length !== entry.size)
    throw new BackupError(`${file} está dañado (archivo ${String(entry.file).slice(0, 80)}).`);
  if (!privateFiles)
    throw new BackupError(`${file} trae archivos privados, pero no se indicó dónde guardarlos.`);
  if (await privateFiles.has(name)) return null;
  await privateFiles.write(name, data);
  return name;
}

/** Stages one uploaded image of a backup, after checking its name and size. */
async function restoreFile(
  entry: { file?: unknown; size?: unknown; data?: unknown },
  file: string,
  uploads: UploadStorage | undefined,
  staging: UploadStaging | undefined,
): Promise<void> {
  const name = String(entry.file).slice(UPLOADS_PREFIX.length);
  const data = typeof entry.data === "string" ? Buffer.from(entry.data, "base64") : null;
  if (
    !String(entry.file).startsWith(UPLOADS_PREFIX) ||
    !UPLOAD_FILE_NAME.test(name) ||
    !data ||
    data.length !== entry.size
  ) {
    throw new BackupError(`${file} está dañado (imagen ${String(entry.file).slice(0, 80)}).`);
  }
  if (!uploads || !staging)
    throw new BackupError(`${file} trae imágenes, pero no se indicó dónde guardarlas.`);
  if (!(await uploads.has(name))) await staging.write(name, data);
}

/** Refuses a backup file that cannot be read, before any database is opened or touched. */
export function assertReadable(file: string): void {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (fs.statSync(file).isDirectory()) throw Object.assign(new Error(), { code: "EISDIR" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(
      `No se pudo leer ${file}: ${code === "ENOENT" ? "el archivo no existe" : code === "EISDIR" ? "es una carpeta, no un archivo" : "no hay permiso para leerlo"}.`,
    );
  }
}

interface RestoreOptions {
  /** Replace whatever the target database holds. */
  force?: boolean;
  /** Where the backup's uploaded images go. */
  uploads?: UploadStorage;
  /** Where the backup's private files go (decision 048). */
  privateFiles?: PrivateStorage;
  /**
   * Told, once the restore has committed, of the files the backup was made without (its header's
   * `missing`, decision 062): the restored rows name them and no store has them from this backup.
   */
  onMissing?: (missing: NamedFile[]) => void;
}

/** The header's `missing` list, as far as it is well formed (older backups have none). */
function missingInHeader(header: BackupHeader): NamedFile[] {
  if (!Array.isArray(header.missing)) return [];
  return header.missing
    .filter((m): m is NamedFile => typeof m?.file === "string" && typeof m?.where === "string")
    .map((m) => ({ file: m.file.slice(0, 200), where: m.where.slice(0, 200) }));
}

/**
 * Loads `file` into `db` in one transaction. A database that holds anything is refused unless
 * `force`; then its content is replaced. Running servers on the same PostgreSQL are told.
 */
export async function restoreBackup(
  db: Db,
  file: string,
  options: RestoreOptions = {},
): Promise<Record<string, number>> {
  assertReadable(file);
  const input = fs.createReadStream(file);
  const gunzip = zlib.createGunzip();
  const lines = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  const damaged = () =>
    new BackupError(
      `${file} está dañado o no es una copia de seguridad de Ayllu (no es gzip válido).`,
    );
  // A gzip error surfaces on the gunzip stream, not always through readline: listen to both.
  const streamError = new Promise<never>((_, reject) => {
    gunzip.on("error", () => reject(damaged()));
    input.on("error", () => reject(damaged()));
  });
  streamError.catch(() => {});
  const iterator = lines[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return await Promise.race([iterator.next(), streamError]);
    } catch (error) {
      throw error instanceof BackupError ? error : damaged();
    }
  };

  const header = parseHeader((await next()).value as string | undefined, file);
  const target = await tablesInOrder(db);
  const targetColumns = new Map(target.map((t) => [t.name, new Set(t.columns)]));
  for (const table of header.tables) {
    const known = targetColumns.get(table.name);
    const unknown = known ? table.columns.filter((c) => !known.has(c)) : [table.name];
    if (unknown.length > 0) {
      throw new BackupError(
        `${file} es de una versión más nueva de Ayllu (${known ? `columnas ${unknown.join(", ")} de ${table.name}` : `tabla ${table.name}`}); actualiza Ayllu antes de restaurarla.`,
      );
    }
  }
  const existing = await nonEmptyTables(db);
  if (Object.keys(existing).length > 0 && !options.force) {
    const list = Object.entries(existing)
      .map(([t, n]) => `${t}: ${n}`)
      .join(", ");
    throw new BackupError(
      `La base de datos de destino no está vacía (${list}). Usa --force para reemplazar todo su contenido por la copia.`,
    );
  }
  const columnsOf = new Map(header.tables.map((t) => [t.name, t.columns]));
  const counts: Record<string, number> = {};
  let restoredFiles = 0;
  // The images are staged in a hidden folder inside the uploads folder while the file is read, and the order after
  // that is: every check passed and every row inserted (not committed) → the images move in → the
  // rows commit. A refusal before that leaves both as they were; a failed commit removes the
  // images that moved in. A crash between the two steps leaves images no row refers to (named by
  // content, harmless, kept by a rerun) and an empty database, never rows whose images are
  // missing; the hidden staging folder it may leave is removed by hand.
  const staging = await options.uploads?.stage();
  let published: string[] = [];
  // Private files are written into their store as they are read (they cannot be staged); those
  // the store did not have are removed again if the restore does not commit.
  const privateAdded: string[] = [];
  try {
    await db.transaction(async (tx) => {
      if (options.force && target.length > 0) {
        await tx.execute(
          sql.raw(`truncate table ${target.map((t) => quoteIdent(t.name)).join(", ")} cascade`),
        );
      } else {
        for (const [name, defaults] of Object.entries(DEFAULT_ROWS)) {
          if (columnsOf.has(name))
            await tx.execute(sql.raw(`delete from ${quoteIdent(name)} where ${defaults}`));
        }
      }
      let table: string | null = null;
      let batch: unknown[] = [];
      const flush = async () => {
        if (!table || batch.length === 0) return;
        const listed = columnsOf.get(table)!;
        const filled = Object.entries(FILLED_WHEN_MISSING[table] ?? {}).filter(
          ([column]) => !listed.includes(column),
        );
        const cols = [...listed, ...filled.map(([column]) => column)].map(quoteIdent).join(", ");
        const values = [...listed.map(quoteIdent), ...filled.map(([, value]) => value)].join(", ");
        await tx.execute(
          sql`${sql.raw(`insert into ${quoteIdent(table)} (${cols}) select ${values} from json_populate_recordset(null::${quoteIdent(table)}, `)}${JSON.stringify(batch)}::json)`,
        );
        counts[table] = (counts[table] ?? 0) + batch.length;
        batch = [];
      };
      for (;;) {
        const { value, done } = await next();
        if (done) break;
        if (!value) continue;
        let entry: {
          table?: unknown;
          row?: unknown;
          file?: unknown;
          size?: unknown;
          data?: unknown;
        };
        try {
          entry = JSON.parse(value as string) as typeof entry;
        } catch {
          throw new BackupError(`${file} está dañado (una línea no es JSON válido).`);
        }
        if (typeof entry.file === "string" && entry.file.startsWith(PRIVATE_PREFIX)) {
          const added = await restorePrivateFile(entry, file, options.privateFiles);
          if (added) privateAdded.push(added);
          restoredFiles++;
          continue;
        }
        if (typeof entry.file === "string") {
          await restoreFile(entry, file, options.uploads, staging);
          restoredFiles++;
          continue;
        }
        if (typeof entry.table !== "string") continue; // a kind this version does not know
        if (!columnsOf.has(entry.table))
          throw new BackupError(`${file} está dañado (tabla ${entry.table} no anunciada).`);
        if (entry.table !== table || batch.length >= ROWS_PER_INSERT) {
          await flush();
          table = entry.table;
        }
        batch.push(entry.row);
      }
      await flush();
      // A backup from before sessions (decision 043): each event gets the one session the
      // migration gave every event, spanning it, with the event's id.
      if (!columnsOf.has("event_sessions") && columnsOf.has("events"))
        await tx.execute(sql`insert into event_sessions (id, event_id, starts_at, ends_at, created_at)
          select id, id, starts_at, ends_at, created_at from events`);
      // A backup from before attendance per session (decision 044): each check-in becomes
      // attendance of its event's session, as the migration did.
      if (!columnsOf.has("session_attendance") && columnsOf.has("participations"))
        await tx.execute(sql.raw(CHECK_INS_AS_ATTENDANCE));
      if (restoredFiles !== (header.files ?? 0)) {
        throw new BackupError(
          `${file} está incompleto: tiene ${restoredFiles} archivos de ${header.files}.`,
        );
      }
      for (const t of header.tables) {
        if ((counts[t.name] ?? 0) !== t.rows) {
          throw new BackupError(
            `${file} está incompleto: ${t.name} tiene ${counts[t.name] ?? 0} filas de ${t.rows}.`,
          );
        }
      }
      // Running servers on this database reload their live lists once this commits.
      for (const kind of ["note", "resource", "project"]) {
        await tx.execute(
          sql`select pg_notify(${PUBLICATIONS_CHANNEL}, ${JSON.stringify({ kind, action: "updated", id: "" })})`,
        );
      }
      published = (await staging?.publish()) ?? [];
    });
  } catch (error) {
    for (const name of published) await options.uploads!.remove(name);
    for (const name of privateAdded) await options.privateFiles!.remove(name).catch(() => {});
    if (error instanceof BackupError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    throw new BackupError(
      `La base de datos rechazó la restauración: ${cause instanceof Error ? cause.message : (error as Error).message}. No se restauró nada.`,
    );
  } finally {
    lines.close();
    input.destroy();
    await staging?.discard();
  }
  const missing = missingInHeader(header);
  if (missing.length > 0) options.onMissing?.(missing);
  return counts;
}
