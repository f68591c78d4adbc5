// Uploaded images (docs/decisions/022-uploads.md): read from the bytes, turned upright, stripped
// of every piece of metadata (GPS above all), resized to a few widths in WebP and stored by
// content hash; and removed again once no row of the database mentions them.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { storedWidths, UPLOAD_FILE_NAME, UPLOAD_WIDTHS, uploadedImagePath } from "~/kernel/images";
import type { Db } from "~/db/client.server";
import type { Config } from "~/kernel/config.server";
import { rowsOf } from "~/db/rows.server";
import { uploadAttempts, type User } from "~/db/schema.server";
import type { DecodePlace } from "./decode-queue.server";
import { siteStorage } from "./site-storage.server";
import { StorageUnavailableError, type UploadStorage } from "./storage.server";
import { may, NotAllowedError, type Grant } from "~/kernel/permissions";
import { Refusal } from "~/kernel/errors";

/**
 * A file refused, with the Spanish sentence shown next to the field. 429 and 503 say when to try
 * again (`retryAfter`, in seconds).
 */
export class UploadRefusedError extends Refusal {
  override name = "UploadRefusedError";
  constructor(message: string, status: 400 | 413 | 415 | 429 | 503 = 400, retryAfter?: number) {
    super(message, status, { retryAfter });
  }
}

/** Every decoding turn of this process is taken and its line is full (a DecodeQueue's refusal). */
export function busyError(): UploadRefusedError {
  return new UploadRefusedError(
    "El servidor está procesando muchas imágenes a la vez. Vuelve a intentarlo en unos segundos.",
    503,
    5,
  );
}

/** What the images are for: an admin's (events, galleries, notes, resources, projects) or a member's own photo. */
export type UploadPurpose = "admin" | "perfil";

export interface UploadedFile {
  /** The name the browser gave it; only for messages. */
  filename: string;
  data: Buffer;
}

export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
}

interface ProcessedImage {
  /** The stored path of the largest width, which is what a form saves. */
  path: string;
  width: number;
  height: number;
  files: { name: string; data: Buffer }[];
}

// libvips keeps the results of recent operations (up to 50 MB) for a repeated call; no upload is
// decoded twice, so here the cache only held memory (docs/decisions/028-image-decoding-bound.md).
sharp.cache(false);

// Kinds read by their bytes. HEIF is read only as AVIF (AV1); sharp's prebuilt binaries have no HEVC.
const READABLE = new Set(["jpeg", "png", "webp", "gif", "heif"]);
const KINDS = "JPEG, PNG, WebP, AVIF o GIF";

const shown = (filename: string) => (filename ? `«${filename.slice(0, 80)}»` : "El archivo");
const megabytes = (bytes: number) =>
  (bytes / 1024 / 1024).toLocaleString("es-BO", { maximumFractionDigits: 1 });

/** A refusal for a file past the size limit (found while it streams in). */
export function tooLargeError(filename: string, limits: UploadLimits): UploadRefusedError {
  return new UploadRefusedError(
    `${shown(filename)} pesa más de ${megabytes(limits.maxBytes)} MB, el máximo por imagen.`,
    413,
  );
}

/**
 * Reads one file as an image and makes its stored widths. Refused: anything that is not a JPEG,
 * PNG, WebP, AVIF or GIF by its bytes (whatever its name says), and an image that declares more
 * pixels than the limit (a small file can declare 50,000 × 50,000 and take gigabytes to decode).
 */
export async function processImage(
  file: UploadedFile,
  limits: UploadLimits,
): Promise<ProcessedImage> {
  if (file.data.length > limits.maxBytes) throw tooLargeError(file.filename, limits);
  const notImage = new UploadRefusedError(
    `${shown(file.filename)} no es una imagen ${KINDS}.`,
    415,
  );
  const options = { limitInputPixels: limits.maxPixels, failOn: "error" } as const;
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // Only the header is read here, so the pixel limit is checked below, with a clear message.
    meta = await sharp(file.data, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw notImage;
  }
  if (!READABLE.has(meta.format) || (meta.format === "heif" && meta.compression !== "av1"))
    throw notImage;
  const { width, height } = meta;
  if (!width || !height) throw notImage;
  if (width * height > limits.maxPixels) {
    throw new UploadRefusedError(
      `${shown(file.filename)} tiene demasiados píxeles (${width.toLocaleString("es-BO")} × ${height.toLocaleString("es-BO")}); el máximo es ${(limits.maxPixels / 1_000_000).toLocaleString("es-BO")} millones.`,
      413,
    );
  }
  const hash = createHash("sha256").update(file.data).digest("hex").slice(0, 32);
  // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is its stored height.
  const uprightWidth = (meta.orientation ?? 1) >= 5 ? height : width;
  const largest = Math.min(uprightWidth, Math.max(...UPLOAD_WIDTHS));
  try {
    // Decoded once, upright and at the largest width; the smaller widths come from those pixels.
    // No metadata is carried over: sharp writes none unless asked (no EXIF, GPS, ICC or XMP).
    const { data: pixels, info } = await sharp(file.data, { ...options, animated: false })
      .rotate()
      .resize({ width: largest, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const files = await Promise.all(
      storedWidths(largest).map(async (w) => ({
        name: `${hash}-${w}.webp`,
        data: await sharp(pixels, raw).resize({ width: w }).webp({ quality: 80 }).toBuffer(),
      })),
    );
    return {
      path: uploadedImagePath(hash, largest),
      width: info.width,
      height: info.height,
      files,
    };
  } catch {
    throw notImage;
  }
}

/**
 * Who may upload for what: admins, organisers and editors for the site's images (events,
 * galleries, publications), any member for their own photo.
 */
export function mayUpload(
  actor: (Pick<User, "isAdmin"> & { grants?: readonly Grant[] }) | null,
  purpose: UploadPurpose,
): boolean {
  if (!actor) return false;
  return purpose === "perfil" || may(actor, "uploads.images");
}

/**
 * Counts an upload by `actor` against their uploads per minute, in the database, so that the
 * limit holds however many processes and machines serve the site. Over the limit it is refused
 * (429) and not counted. Each upload commits its row before counting: of two at once at the
 * limit, the later count sees both, so the limit is never passed (at worst both are refused).
 */
export async function countUpload(
  db: Db,
  actor: Pick<User, "id" | "isAdmin"> | null,
  purpose: UploadPurpose,
  perMinute: number,
): Promise<void> {
  if (!actor || !mayUpload(actor, purpose)) throw new NotAllowedError();
  const minuteAgo = sql`now() - interval '1 minute'`;
  await db.delete(uploadAttempts).where(lt(uploadAttempts.createdAt, minuteAgo));
  const [mine] = await db
    .insert(uploadAttempts)
    .values({ userId: actor.id })
    .returning({ id: uploadAttempts.id });
  const [counted] = rowsOf<{ n: number; wait: number | null }>(
    await db.execute(sql`
      select count(*)::int as n,
        ceil(extract(epoch from min(${uploadAttempts.createdAt}) + interval '1 minute' - now()))::int as wait
      from ${uploadAttempts}
      where ${and(eq(uploadAttempts.userId, actor.id), gte(uploadAttempts.createdAt, minuteAgo))}`),
  );
  if ((counted?.n ?? 0) <= perMinute) return;
  await db.delete(uploadAttempts).where(eq(uploadAttempts.id, mine!.id));
  throw new UploadRefusedError(
    `Subiste muchas imágenes en poco tiempo (como máximo ${perMinute} por minuto). Espera un momento y vuelve a intentarlo.`,
    429,
    Math.min(Math.max(counted?.wait ?? 60, 1), 60),
  );
}

/**
 * Processes every file and stores them all, or none: one refused file refuses the request.
 * Returns the paths to save, in the order the files came. The decoding happens in `turn` (the
 * request's place in the process's line, app/uploads/decode-queue.server.ts); the writing after it.
 */
export async function storeImages(
  storage: UploadStorage,
  actor: Pick<User, "isAdmin"> | null,
  purpose: UploadPurpose,
  files: readonly UploadedFile[],
  limits: UploadLimits,
  turn: Pick<DecodePlace, "run"> = { run: (work) => work() },
): Promise<{ path: string; width: number; height: number }[]> {
  if (!mayUpload(actor, purpose)) throw new NotAllowedError();
  const processed = await turn.run(async () => {
    const images: ProcessedImage[] = [];
    for (const file of files) images.push(await processImage(file, limits));
    return images;
  });
  try {
    for (const image of processed) {
      for (const file of image.files) {
        // Named by content: a file already there is the same image.
        if (!(await storage.has(file.name))) await storage.write(file.name, file.data);
      }
    }
  } catch (error) {
    // Each file is written whole or not at all; the widths written before the failure are
    // referenced by nothing and go with the hourly sweep (docs/decisions/032-object-storage.md).
    console.error("No se pudo guardar una imagen subida:", error);
    throw new StorageUnavailableError();
  }
  return processed.map(({ path, width, height }) => ({ path, width, height }));
}

/** The content hashes of uploaded images mentioned anywhere in `value` (a row, a list, a path). */
export function uploadHashesIn(value: unknown): string[] {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  const found = new Set<string>();
  for (const match of text.matchAll(/\/imagenes\/([0-9a-f]{32})-[0-9]+\.webp/g))
    found.add(match[1]!);
  return [...found];
}

/**
 * Every content hash some row of the database mentions. The tables and their text columns are
 * read from the catalogue, so a table added later (the landing sections, say) counts
 * without touching this code.
 */
export async function referencedUploadHashes(db: Db): Promise<Set<string>> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(sql`
      SELECT c.table_name, c.column_name
      FROM information_schema.columns c
      JOIN information_schema.tables t
        ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')
      ORDER BY c.table_name, c.column_name`),
  );
  if (columns.length === 0) return new Set();
  const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const parts = columns.map(
    ({ table_name, column_name }) =>
      `SELECT m[1] AS hash FROM ${ident(table_name)}, regexp_matches(${ident(column_name)}::text, '/imagenes/([0-9a-f]{32})-[0-9]+\\.webp', 'g') AS m WHERE ${ident(column_name)}::text LIKE '%/imagenes/%'`,
  );
  const rows = rowsOf<{ hash: string }>(await db.execute(sql.raw(parts.join(" UNION "))));
  return new Set(rows.map((r) => r.hash));
}

async function removeHashes(storage: UploadStorage, hashes: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  for (const { name } of await storage.list()) {
    const hash = UPLOAD_FILE_NAME.exec(name)?.[1];
    if (hash && hashes.has(hash)) {
      await storage.remove(name);
      removed++;
    }
  }
  return removed;
}

/**
 * After a change that may have dropped images (an event or gallery image deleted, an image
 * replaced): the files of `hashes` that no row mentions any more are removed.
 */
export async function releaseUploads(
  db: Db,
  storage: UploadStorage,
  hashes: readonly string[],
): Promise<number> {
  if (hashes.length === 0) return 0;
  const used = await referencedUploadHashes(db);
  return removeHashes(storage, new Set(hashes.filter((h) => !used.has(h))));
}

/**
 * After a change: `before` is what it replaced or deleted (the row as it was, a path); its
 * uploaded images that no row mentions any more are removed. A failure is logged and leaves the
 * files to the hourly sweep; the change itself stands.
 */
export async function releaseReplaced(
  db: Db,
  storage: UploadStorage,
  before: unknown,
): Promise<void> {
  try {
    await releaseUploads(db, storage, uploadHashesIn(before));
  } catch (error) {
    console.error("No se pudieron quitar las imágenes que ya no se usan:", error);
  }
}

/** releaseReplaced on the site's store (folder or bucket), for a route that changed something. */
export function releaseAfterChange(
  context: { db: Db; config: Pick<Config, "uploadsDir" | "objectStore"> },
  before: unknown,
): Promise<void> {
  return releaseReplaced(context.db, siteStorage(context.config), before);
}

/** How long an upload may wait for the form that uses it to be saved. */
export const UNSAVED_UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Files uploaded but never saved in a form (the admin closed the page), and older than the
 * grace period, are removed. The server runs this at start and every hour.
 */
export async function sweepUploads(
  db: Db,
  storage: UploadStorage,
  now: Date = new Date(),
): Promise<number> {
  const files = await storage.list();
  if (files.length === 0) return 0;
  const used = await referencedUploadHashes(db);
  const old = new Set<string>();
  const recent = new Set<string>();
  for (const { name, modifiedMs } of files) {
    const hash = UPLOAD_FILE_NAME.exec(name)?.[1] ?? "";
    (now.getTime() - modifiedMs > UNSAVED_UPLOAD_GRACE_MS ? old : recent).add(hash);
  }
  return removeHashes(storage, new Set([...old].filter((h) => !used.has(h) && !recent.has(h))));
}
