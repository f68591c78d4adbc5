// The files the database names, and whether the stores have them (docs/decisions/062-backups-never-omit-named-files.md).
// A row names an uploaded photo when any of its text mentions /imagenes/<hash>-<width>.webp — the
// same rule that keeps a photo from the hourly sweep — and a private file (a receipt, the bank's
// QR) when a text column's whole value is a private file's name. The tables and columns are read
// from the catalogue, so a table added later is checked without touching this code. Backups,
// restores and Diagnóstico all ask here.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { storedWidths, UPLOAD_FILE_NAME } from "~/kernel/images";
import type { PrivateStorage, UploadStorage } from "./storage.server";

/** How a backup line names a photo (uploads/<name>) and a private file (privado/<name>). */
export const UPLOADS_PREFIX = "uploads/";
export const PRIVATE_PREFIX = "privado/";

export interface NamedFile {
  /** uploads/<name> or privado/<name>, as a backup's file lines name it. */
  file: string;
  /** The first column found naming it: table.column. */
  where: string;
}

/** What a check found: how many files the rows name, and those the stores lack. */
export interface StoredFilesCheck {
  named: number;
  missing: NamedFile[];
}

/** How many missing files a message names; the rest are counted. */
export const MISSING_SHOWN = 5;

/** Every file some row of `db` names, each once, sorted by name. */
export async function namedFiles(db: Db): Promise<NamedFile[]> {
  const columns = rowsOf<{ table_name: string; column_name: string; data_type: string }>(
    await db.execute(sql`
      SELECT c.table_name, c.column_name, c.data_type
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
      ORDER BY c.table_name, c.column_name`),
  );
  if (columns.length === 0) return [];
  const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  const parts: string[] = [];
  for (const { table_name, column_name, data_type } of columns) {
    const where = literal(`${table_name}.${column_name}`);
    const value = `${ident(column_name)}::text`;
    parts.push(
      `SELECT ${where} AS place, 'u' AS kind, m[1] AS name FROM ${ident(table_name)}, regexp_matches(${value}, '/imagenes/([0-9a-f]{32}-[0-9]+\\.webp)', 'g') AS m WHERE ${value} LIKE '%/imagenes/%'`,
    );
    if (data_type === "text" || data_type === "character varying")
      parts.push(
        `SELECT ${where}, 'p', ${ident(column_name)} FROM ${ident(table_name)} WHERE ${ident(column_name)} ~ '^[0-9a-f]{32}\\.(png|jpg|pdf)$'`,
      );
  }
  const rows = rowsOf<{ place: string; kind: "u" | "p"; name: string }>(
    await db.execute(sql.raw(parts.join(" UNION "))),
  );
  const found = new Map<string, string>();
  for (const { place, kind, name } of rows) {
    if (kind === "p") {
      if (!found.has(PRIVATE_PREFIX + name)) found.set(PRIVATE_PREFIX + name, place);
      continue;
    }
    // A path names its largest width; the smaller ones sit beside it (kernel/images.ts).
    const [, hash, width] = UPLOAD_FILE_NAME.exec(name) ?? [];
    if (!hash) continue;
    for (const w of storedWidths(Number(width))) {
      const file = `${UPLOADS_PREFIX}${hash}-${w}.webp`;
      if (!found.has(file)) found.set(file, place);
    }
  }
  return [...found]
    .map(([file, where]) => ({ file, where }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Of `named`, those not in `present` (file names with their prefix). */
export function missingOf(named: readonly NamedFile[], present: ReadonlySet<string>): NamedFile[] {
  return named.filter((n) => !present.has(n.file));
}

/**
 * The stores to check: a kind without a store is not checked (a test's backup of rows alone);
 * the site passes both.
 */
export interface Stores {
  uploads?: Pick<UploadStorage, "list">;
  privateFiles?: Pick<PrivateStorage, "list">;
}

/**
 * The files the rows name and the stores lack. One query and one listing per store: for 1,000
 * receipts and 1,000 photos (4,000 files), about 0.15 s on either database with folders
 * (npm run bench:stored-files).
 */
export async function checkStoredFiles(db: Db, stores: Stores): Promise<StoredFilesCheck> {
  const named = (await namedFiles(db)).filter((n) =>
    n.file.startsWith(UPLOADS_PREFIX) ? stores.uploads : stores.privateFiles,
  );
  const present = new Set<string>();
  for (const [prefix, store] of [
    [UPLOADS_PREFIX, stores.uploads],
    [PRIVATE_PREFIX, stores.privateFiles],
  ] as const) {
    if (store) for (const { name } of await store.list()) present.add(prefix + name);
  }
  return { named: named.length, missing: missingOf(named, present) };
}

/** The first few missing files, for a message: 'privado/ab….pdf (payments.receipt_file), …'. */
export function listMissing(missing: readonly NamedFile[]): string {
  const shown = missing
    .slice(0, MISSING_SHOWN)
    .map((m) => `${m.file} (${m.where})`)
    .join(", ");
  const rest = missing.length - MISSING_SHOWN;
  return rest > 0 ? `${shown} y ${rest} más` : shown;
}

/** 'Falta 1 archivo' / 'Faltan 3 archivos' that the database names. */
export function missingSentence(missing: readonly NamedFile[]): string {
  const n = missing.length;
  return `${n === 1 ? "Falta 1 archivo" : `Faltan ${n} archivos`} que la base de datos nombra y el almacén no tiene: ${listMissing(missing)}.`;
}
