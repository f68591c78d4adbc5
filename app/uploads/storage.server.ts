// The one place uploaded files are written, read, served and deleted: a folder (UPLOADS_DIR), or
// an S3-compatible bucket shared by every node (S3_*, docs/decisions/032-object-storage.md).
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express from "express";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import { ConfigError, type Config, type ObjectStoreSettings } from "~/kernel/config.server";
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

function checkedName(name: string): string {
  if (!UPLOAD_FILE_NAME.test(name)) throw new Error(`Nombre de archivo subido no válido: ${name}`);
  return name;
}

async function writeSynced(target: string, data: Uint8Array): Promise<void> {
  const handle = await fs.open(target, "w");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes the names a folder gained or lost durable. */
async function syncFolder(dir: string): Promise<void> {
  const folder = await fs.open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

const temporaryName = () => `.${randomBytes(8).toString("hex")}.tmp`;

/** Long-lived caching: a name always means the same bytes (docs/decisions/022-uploads.md). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The folder store: UPLOADS_DIR on this machine. */
export function uploadStorage(dir: string): UploadStorage {
  const file = (name: string) => path.join(dir, checkedName(name));
  const serveStatic = express.static(dir, {
    immutable: true,
    maxAge: "1y",
    index: false,
    dotfiles: "ignore",
    redirect: false,
  });
  const has = (name: string) =>
    fs.stat(file(name)).then(
      (s) => s.isFile(),
      () => false,
    );
  return {
    dir,
    identity: `folder:${os.hostname()}:${path.resolve(dir)}`,
    location: path.resolve(dir),
    serve(name, req, res, next) {
      // express.static reads the path from the request: it is /<name> under the /imagenes mount.
      serveStatic(req as express.Request, res as express.Response, next);
    },
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const files = [];
      for (const name of names) {
        if (!UPLOAD_FILE_NAME.test(name)) continue;
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (stat?.isFile()) files.push({ name, modifiedMs: stat.mtimeMs });
      }
      return files;
    },
    has,
    read(name) {
      return fs.readFile(file(name));
    },
    async write(name, data) {
      const target = file(name);
      await fs.mkdir(dir, { recursive: true });
      const temporary = path.join(dir, temporaryName());
      await writeSynced(temporary, data);
      await fs.rename(temporary, target);
      await syncFolder(dir);
    },
    async remove(name) {
      await fs.rm(file(name), { force: true });
    },
    async stage() {
      // Inside the folder (hidden, and no file name the site serves), so that publishing is a
      // rename on the same file system, even when UPLOADS_DIR is a mount point of its own. Made
      // on the first file, so that staging nothing leaves the folder as it was.
      const staging = path.join(dir, `.restore${temporaryName()}`);
      let madeDir: string | undefined;
      const staged = new Set<string>();
      return {
        async write(name, data) {
          if (staged.size === 0) {
            madeDir ??= await fs.mkdir(dir, { recursive: true });
            await fs.mkdir(staging, { recursive: true });
          }
          await writeSynced(path.join(staging, checkedName(name)), data);
          staged.add(name);
        },
        async publish() {
          const added: string[] = [];
          try {
            for (const name of [...staged].sort()) {
              if (await has(name)) continue;
              await fs.rename(path.join(staging, name), file(name));
              added.push(name);
            }
            if (added.length > 0) await syncFolder(dir);
          } catch (error) {
            for (const name of added) await fs.rm(file(name), { force: true });
            throw error;
          }
          return added;
        },
        async discard() {
          await fs.rm(staging, { recursive: true, force: true });
          // Folders this staging created go too, while they are empty (nothing was published).
          if (!madeDir) return;
          for (
            let folder = path.resolve(dir);
            folder.startsWith(madeDir);
            folder = path.dirname(folder)
          ) {
            if (
              !(await fs.rmdir(folder).then(
                () => true,
                () => false,
              ))
            )
              break;
          }
        },
      };
    },
  };
}

// ——— The object store ———

// The SDK is pinned (package.json) to a version that supports this Node.js; its notice about
// later versions needing Node 22 would be printed by every process at start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

type S3 = typeof import("@aws-sdk/client-s3");
let sdk: Promise<S3> | null = null;
/** Loaded on first use: a site on its folder never loads the SDK. */
const loadSdk = () => (sdk ??= import("@aws-sdk/client-s3"));

/** Where the photos are in the bucket; private files go under PRIVATE_PREFIX (or their own bucket). */
const PHOTOS_PREFIX = "imagenes/";
const PRIVATE_PREFIX = "privado/";
const STAGING_PREFIX = "restauracion/";
const PROBE_PREFIX = "comprobacion/";

function httpStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "NotFound" || name === "NoSuchKey" || httpStatusOf(error) === 404;
}

/** A client as every store needs it: checksums only where the API requires them (R2, Garage). */
async function s3Client(settings: ObjectStoreSettings) {
  const { S3Client } = await loadSdk();
  return new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A store that does not answer fails the request in seconds, not minutes.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    maxAttempts: 2,
  });
}

/** The bucket store: every node reads and writes the same photos. */
export function objectStorage(settings: ObjectStoreSettings, localDir: string): UploadStorage {
  const client = s3Client(settings);
  const key = (name: string) => PHOTOS_PREFIX + checkedName(name);
  const bucket = settings.bucket;
  const where = `${settings.endpoint ?? `s3.${settings.region}.amazonaws.com`}/${bucket}`;
  const has = async (name: string) => {
    const { HeadObjectCommand } = await loadSdk();
    try {
      await (await client).send(new HeadObjectCommand({ Bucket: bucket, Key: key(name) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };
  const put = async (objectKey: string, data: Uint8Array) => {
    const { PutObjectCommand } = await loadSdk();
    // One PUT: the object appears whole or not at all.
    await (
      await client
    ).send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: objectKey,
        Body: data,
        ContentLength: data.byteLength,
        ContentType: "image/webp",
        CacheControl: IMMUTABLE,
      }),
    );
  };
  const remove = async (objectKey: string) => {
    const { DeleteObjectCommand } = await loadSdk();
    await (await client).send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey }));
  };
  async function* keysUnder(prefix: string) {
    const { ListObjectsV2Command } = await loadSdk();
    let token: string | undefined;
    do {
      const page = await (
        await client
      ).send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) yield object;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return {
    dir: localDir,
    identity: `bucket:${where}`,
    location: where,
    async list() {
      const files = [];
      for await (const object of keysUnder(PHOTOS_PREFIX)) {
        const name = (object.Key ?? "").slice(PHOTOS_PREFIX.length);
        if (UPLOAD_FILE_NAME.test(name))
          files.push({ name, modifiedMs: object.LastModified?.getTime() ?? Date.now() });
      }
      return files;
    },
    has,
    async read(name) {
      const { GetObjectCommand } = await loadSdk();
      const object = await (
        await client
      ).send(new GetObjectCommand({ Bucket: bucket, Key: key(name) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async write(name, data) {
      await put(key(name), data);
    },
    async remove(name) {
      await remove(key(name));
    },
    async stage() {
      // Staged under a prefix of its own, copied into place on publish: nothing staged is a photo
      // until then, and a staging a crash leaves behind is under restauracion/, never served.
      const prefix = `${STAGING_PREFIX}${randomBytes(8).toString("hex")}/`;
      const staged = new Set<string>();
      return {
        async write(name, data) {
          await put(prefix + checkedName(name), data);
          staged.add(name);
        },
        async publish() {
          const { CopyObjectCommand } = await loadSdk();
          const added: string[] = [];
          try {
            for (const name of [...staged].sort()) {
              if (await has(name)) continue;
              await (
                await client
              ).send(
                new CopyObjectCommand({
                  Bucket: bucket,
                  Key: key(name),
                  CopySource: `${bucket}/${prefix}${name}`,
                  ContentType: "image/webp",
                  CacheControl: IMMUTABLE,
                  MetadataDirective: "REPLACE",
                }),
              );
              added.push(name);
            }
          } catch (error) {
            for (const name of added) await remove(key(name)).catch(() => {});
            throw error;
          }
          return added;
        },
        async discard() {
          for (const name of staged) await remove(prefix + name);
          staged.clear();
        },
      };
    },
    serve(name, req, res, next) {
      if (settings.publicUrl) {
        // Photos only: the public bucket or CDN answers, and the browser keeps the redirect.
        res.writeHead(301, {
          Location: `${settings.publicUrl}/${key(name)}`,
          "Cache-Control": IMMUTABLE,
          "Content-Length": "0",
        });
        res.end();
        return;
      }
      void servePhoto(name, req, res).then((found) => {
        if (!found) next();
      }, next);
    },
  };

  /** Streams the object with the folder's headers; false when there is none. */
  async function servePhoto(name: string, req: IncomingMessage, res: ServerResponse) {
    const { GetObjectCommand, HeadObjectCommand } = await loadSdk();
    const conditions = {
      IfNoneMatch: req.headers["if-none-match"],
      IfModifiedSince: req.headers["if-modified-since"]
        ? new Date(req.headers["if-modified-since"])
        : undefined,
    };
    if (conditions.IfModifiedSince && Number.isNaN(conditions.IfModifiedSince.getTime()))
      conditions.IfModifiedSince = undefined;
    let object: {
      ContentLength?: number;
      ETag?: string;
      LastModified?: Date;
      Body?: unknown;
    };
    try {
      const input = { Bucket: bucket, Key: key(name), ...conditions };
      object = await (
        await client
      ).send(req.method === "HEAD" ? new HeadObjectCommand(input) : new GetObjectCommand(input));
    } catch (error) {
      if (httpStatusOf(error) === 304) {
        res.writeHead(304, { "Cache-Control": IMMUTABLE });
        res.end();
        return true;
      }
      if (isMissing(error)) return false;
      throw error;
    }
    const headers: Record<string, string> = {
      "Content-Type": "image/webp",
      "Cache-Control": IMMUTABLE,
    };
    if (object.ContentLength !== undefined)
      headers["Content-Length"] = String(object.ContentLength);
    if (object.ETag) headers.ETag = object.ETag;
    if (object.LastModified) headers["Last-Modified"] = object.LastModified.toUTCString();
    res.writeHead(200, headers);
    if (req.method === "HEAD" || !object.Body) {
      res.end();
      return true;
    }
    await pipeline(object.Body as Readable, res);
    return true;
  }
}

const stores = new Map<string, UploadStorage>();

/**
 * The site's store as the configuration says: the bucket when S3_BUCKET is set, the folder
 * otherwise. One per configuration in a process (the bucket's client keeps its connections).
 */
export function siteStorage(config: Pick<Config, "uploadsDir" | "objectStore">): UploadStorage {
  const id = JSON.stringify([config.uploadsDir, config.objectStore]);
  let store = stores.get(id);
  if (!store) {
    store = config.objectStore
      ? objectStorage(config.objectStore, config.uploadsDir)
      : uploadStorage(config.uploadsDir);
    stores.set(id, store);
  }
  return store;
}

/** How long the start-up check waits for a store that does not answer (a node restarting). */
export const STORE_CHECK_MS = 30_000;

/**
 * What a failed check means, naming the variable to look at; null when the store may simply be
 * away for a moment (no answer, a 5xx), which is tried again.
 */
function checkProblem(
  error: unknown,
  settings: ObjectStoreSettings,
  bucketVariable: string,
): string | null {
  const name = (error as { name?: string; Code?: string } | null)?.name ?? "";
  const status = httpStatusOf(error);
  const bucket = bucketVariable === "S3_PRIVATE_BUCKET" ? settings.privateBucket : settings.bucket;
  switch (name) {
    case "NoSuchBucket":
      return `${bucketVariable}: el bucket «${bucket}» no existe en ${settings.endpoint ?? "AWS S3"}.`;
    case "InvalidAccessKeyId":
      return "S3_ACCESS_KEY_ID: el almacén de objetos no conoce esta clave de acceso.";
    case "SignatureDoesNotMatch":
      return "S3_SECRET_ACCESS_KEY: la clave secreta no corresponde a S3_ACCESS_KEY_ID.";
    case "AccessDenied":
      return `S3_ACCESS_KEY_ID: la clave no tiene permiso para escribir, leer y borrar en el bucket «${bucket}» (${bucketVariable}).`;
    case "AuthorizationHeaderMalformed":
    case "PermanentRedirect":
    case "IllegalLocationConstraintException":
      return `S3_REGION: «${settings.region}» no es la región del bucket «${bucket}».`;
  }
  if (status !== undefined && status >= 400 && status < 500)
    return `${bucketVariable} / S3_ACCESS_KEY_ID: el almacén de objetos rechazó la prueba de escritura (${status} ${name}).`;
  return null;
}

/**
 * Checks at start that the bucket (and the private one) can be written, read back and deleted:
 * a wrong endpoint, bucket or key stops the server with a message naming the variable, never a
 * 500 at the first upload. A store that does not answer is asked again for up to `waitMs`.
 */
export async function checkObjectStore(
  settings: ObjectStoreSettings,
  options: { waitMs?: number; log?: (line: string) => void } = {},
): Promise<void> {
  const waitMs = options.waitMs ?? STORE_CHECK_MS;
  const { PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await loadSdk();
  const client = await s3Client(settings);
  const targets: Array<[string, string, string]> = [[settings.bucket, "S3_BUCKET", PROBE_PREFIX]];
  if (settings.privateBucket)
    targets.push([settings.privateBucket, "S3_PRIVATE_BUCKET", PRIVATE_PREFIX + PROBE_PREFIX]);
  const started = Date.now();
  try {
    for (const [bucket, variable, prefix] of targets) {
      const probeKey = `${prefix}${os.hostname()}-${process.pid}-${randomBytes(6).toString("hex")}`;
      const body = randomBytes(16).toString("hex");
      for (let attempt = 1; ; attempt++) {
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: probeKey,
              Body: body,
              ContentType: "text/plain",
            }),
          );
          const read = await client.send(new GetObjectCommand({ Bucket: bucket, Key: probeKey }));
          const back = await read.Body!.transformToString();
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probeKey }));
          if (back !== body)
            throw new ConfigError(
              `S3_ENDPOINT: el almacén de objetos devolvió otro contenido del que se escribió en «${bucket}» (${variable}).`,
            );
          break;
        } catch (error) {
          if (error instanceof ConfigError) throw error;
          const problem = checkProblem(error, settings, variable);
          if (problem) throw new ConfigError(`Almacenamiento de objetos: ${problem}`);
          if (Date.now() - started >= waitMs) {
            const reason =
              (error as { code?: string; name?: string } | null)?.code ?? (error as Error).name;
            throw new ConfigError(
              `Almacenamiento de objetos: S3_ENDPOINT: no se pudo escribir y leer en ${settings.endpoint ?? "AWS S3"} durante ${Math.round(waitMs / 1000)} s (${reason}).`,
            );
          }
          if (attempt === 1)
            options.log?.(
              `El almacenamiento de objetos (${settings.endpoint ?? "AWS S3"}) no responde; se reintenta hasta ${Math.round(waitMs / 1000)} s…`,
            );
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, waitMs)));
        }
      }
    }
  } finally {
    client.destroy();
  }
}

// ——— Backups in the bucket ———

/** An s3://bucket/key address, as `npm run backup` and `npm run restore` take it; null otherwise. */
export function parseS3Address(address: string): { bucket: string; key: string } | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/.exec(address);
  if (!match || match[2]!.split("/").some((part) => part === "" || part === "." || part === ".."))
    return null;
  return { bucket: match[1]!, key: match[2]! };
}

/**
 * Sends a backup file written on disk to s3://bucket/key with the site's S3 settings (endpoint,
 * region, keys). One PUT: the object appears only once whole.
 */
export async function uploadBackupFile(
  settings: ObjectStoreSettings,
  file: string,
  target: { bucket: string; key: string },
): Promise<void> {
  const { PutObjectCommand } = await loadSdk();
  const client = await s3Client(settings);
  try {
    const { size } = await fs.stat(file);
    const handle = await fs.open(file, "r");
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: target.bucket,
          Key: target.key,
          Body: handle.createReadStream({ autoClose: false }),
          ContentLength: size,
          ContentType: "application/gzip",
        }),
      );
    } finally {
      await handle.close();
    }
  } finally {
    client.destroy();
  }
}

/** Fetches s3://bucket/key into `file` (written whole, then renamed into place). */
export async function downloadBackupFile(
  settings: ObjectStoreSettings,
  source: { bucket: string; key: string },
  file: string,
): Promise<void> {
  const { GetObjectCommand } = await loadSdk();
  const client = await s3Client(settings);
  const partial = `${file}.${process.pid}.tmp`;
  try {
    const object = await client.send(
      new GetObjectCommand({ Bucket: source.bucket, Key: source.key }),
    );
    await pipeline(object.Body as Readable, createWriteStream(partial));
    const handle = await fs.open(partial, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    if (isMissing(error))
      throw new ConfigError(
        `s3://${source.bucket}/${source.key} no existe en el almacén de objetos.`,
      );
    throw error;
  } finally {
    client.destroy();
  }
}

// ——— The private store ———

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

function checkedPrivateName(name: string): string {
  if (!PRIVATE_FILE_NAME.test(name))
    throw new Error(`Nombre de archivo privado no válido: ${name}`);
  return name;
}

/** The private folder: PRIVATE_DIR (default <DATA_DIR>/privado) on this machine. */
export function privateFolderStorage(dir: string): PrivateStorage {
  const file = (name: string) => path.join(dir, checkedPrivateName(name));
  return {
    identity: `folder:${os.hostname()}:${path.resolve(dir)}`,
    location: path.resolve(dir),
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const files = [];
      for (const name of names) {
        if (!PRIVATE_FILE_NAME.test(name)) continue;
        const stat = await fs.stat(path.join(dir, name)).catch(() => null);
        if (stat?.isFile()) files.push({ name, modifiedMs: stat.mtimeMs });
      }
      return files;
    },
    has: (name) =>
      fs.stat(file(name)).then(
        (s) => s.isFile(),
        () => false,
      ),
    read: (name) => fs.readFile(file(name)),
    async write(name, data) {
      const target = file(name);
      // Only the site's process reads these: the folder is not readable by others.
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const temporary = path.join(dir, temporaryName());
      await writeSynced(temporary, data);
      await fs.rename(temporary, target);
      await syncFolder(dir);
    },
    async remove(name) {
      await fs.rm(file(name), { force: true });
    },
  };
}

/** The private files in the bucket: under privado/, in S3_PRIVATE_BUCKET or the photos' bucket. */
export function privateObjectStorage(settings: ObjectStoreSettings): PrivateStorage {
  const client = s3Client(settings);
  const bucket = settings.privateBucket ?? settings.bucket;
  const key = (name: string) => PRIVATE_PREFIX + checkedPrivateName(name);
  const where = `${settings.endpoint ?? `s3.${settings.region}.amazonaws.com`}/${bucket}/${PRIVATE_PREFIX}`;
  return {
    identity: `bucket:${where}`,
    location: where,
    async list() {
      const { ListObjectsV2Command } = await loadSdk();
      const files = [];
      let token: string | undefined;
      do {
        const page = await (
          await client
        ).send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: PRIVATE_PREFIX,
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          const name = (object.Key ?? "").slice(PRIVATE_PREFIX.length);
          if (PRIVATE_FILE_NAME.test(name))
            files.push({ name, modifiedMs: object.LastModified?.getTime() ?? Date.now() });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return files;
    },
    async has(name) {
      const { HeadObjectCommand } = await loadSdk();
      try {
        await (await client).send(new HeadObjectCommand({ Bucket: bucket, Key: key(name) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async read(name) {
      const { GetObjectCommand } = await loadSdk();
      const object = await (
        await client
      ).send(new GetObjectCommand({ Bucket: bucket, Key: key(name) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async write(name, data) {
      const { PutObjectCommand } = await loadSdk();
      await (
        await client
      ).send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key(name),
          Body: data,
          ContentLength: data.byteLength,
          ContentType: "application/octet-stream",
          CacheControl: "private, no-store",
        }),
      );
    },
    async remove(name) {
      const { DeleteObjectCommand } = await loadSdk();
      await (await client).send(new DeleteObjectCommand({ Bucket: bucket, Key: key(name) }));
    },
  };
}

const privateStores = new Map<string, PrivateStorage>();

/** The site's private store as the configuration says, one per configuration in a process. */
export function sitePrivateStorage(
  config: Pick<Config, "privateDir" | "objectStore">,
): PrivateStorage {
  const id = JSON.stringify([config.privateDir, config.objectStore]);
  let store = privateStores.get(id);
  if (!store) {
    store = config.objectStore
      ? privateObjectStorage(config.objectStore)
      : privateFolderStorage(config.privateDir);
    privateStores.set(id, store);
  }
  return store;
}
