// What a store of uploaded files is (docs/decisions/022-uploads.md, 032-object-storage.md): the
// photos' store (UploadStorage) and the private one (PrivateStorage), the names each accepts, and
// the durable writes the folder stores share. The stores themselves: folder-storage.server.ts,
// object-storage.server.ts, private-storage.server.ts; the site's, as the configuration says,
// site-storage.server.ts.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import { Refusal } from "~/kernel/errors";

export interface UploadStorage {
  readonly dir: string;
  /**
   * Which store this is, the same for every process that shares it: a folder is one machine's
   * (host name and path), a bucket the site's. Jobs on the store are claimed under it.
   */
  readonly identity: string;
  /** Names of the stored files (content hash and width), with when each was written. */
  list(): Promise<{ name: string; modifiedMs: number }[]>;
  has(name: string): Promise<boolean>;
  read(name: string): Promise<Buffer>;
  /** Writes a file whole or not at all, and on disk before it resolves. */
  write(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
  /**
   * A staging area for files that must appear all together or not at all (a restore): nothing in
   * it is visible until `publish`.
   */
  stage(): Promise<UploadStaging>;
  /**
   * Answers GET and HEAD of /imagenes/<name> (already checked against UPLOAD_FILE_NAME): the file
   * with a year's immutable caching, or `next()` when there is none.
   */
  serve(
    name: string,
    req: IncomingMessage,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ): void;
  /** Where the store is, for log lines and messages (a folder, or endpoint and bucket). */
  readonly location: string;
}

/**
 * A store that failed while an upload was being written (a bucket gone away mid-upload): the
 * member sees this message and can try again; nothing of the upload is left.
 */
export class StorageUnavailableError extends Refusal {
  override name = "StorageUnavailableError";
  constructor() {
    super(
      "No se pudo guardar la imagen: el almacenamiento de imágenes no responde. Vuelve a intentarlo en unos minutos.",
      503,
      { retryAfter: 30 },
    );
  }
}

export interface UploadStaging {
  /** Writes a file into the staging area, on disk before it resolves. */
  write(name: string, data: Uint8Array): Promise<void>;
  /**
   * Moves the staged files the store lacks into it, durably, all or none, and returns their names
   * (to be removed again if what they belong to is not kept after all). Files it has are kept.
   */
  publish(): Promise<string[]>;
  /** Removes the staging area and what is left in it. */
  discard(): Promise<void>;
}

export function checkedName(name: string): string {
  if (!UPLOAD_FILE_NAME.test(name)) throw new Error(`Nombre de archivo subido no válido: ${name}`);
  return name;
}

export async function writeSynced(target: string, data: Uint8Array): Promise<void> {
  const handle = await fs.open(target, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the names a folder gained or lost durable. */
export async function syncFolder(dir: string): Promise<void> {
  const folder = await fs.open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

export const temporaryName = () => `.${randomBytes(8).toString("hex")}.tmp`;

/**
 * A private file's name: the first 32 hex digits of the SHA-256 of its stored bytes, and its kind.
 * The site's bank QR is a PNG (decision 048).
 */
export const PRIVATE_FILE_NAME = /^([0-9a-f]{32})\.(png|jpg|pdf)$/;

/**
 * Files nobody may fetch by address (the bank's QR, payment receipts): written, read, listed and
 * removed here, and served only by a route that has asked who is asking. A folder beside the
 * photos' (never under UPLOADS_DIR, which /imagenes serves), or `privado/` in the private bucket
 * (S3_PRIVATE_BUCKET, or the photos' bucket without it: decision 032).
 */
export interface PrivateStorage {
  readonly identity: string;
  readonly location: string;
  list(): Promise<{ name: string; modifiedMs: number }[]>;
  has(name: string): Promise<boolean>;
  read(name: string): Promise<Buffer>;
  /** Writes a file whole or not at all, and durably before it resolves. */
  write(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

export function checkedPrivateName(name: string): string {
  if (!PRIVATE_FILE_NAME.test(name))
    throw new Error(`Nombre de archivo privado no válido: ${name}`);
  return name;
}
