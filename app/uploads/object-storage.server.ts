// The object store: the photos in an S3-compatible bucket shared by every node (S3_*,
// docs/decisions/032-object-storage.md), the client every bucket store shares, and the start-up
// check that the buckets can be written, read and deleted.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConfigError, type ObjectStoreSettings } from "~/kernel/config.server";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import { checkedName, type UploadStorage } from "./storage.server";

// The SDK is pinned (package.json) to a version that supports this Node.js; its notice about
// later versions needing Node 22 would be printed by every process at start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

type S3 = typeof import("@aws-sdk/client-s3");
let sdk: Promise<S3> | null = null;
/** Loaded on first use: a site on its folder never loads the SDK. */
export const loadSdk = () => (sdk ??= import("@aws-sdk/client-s3"));

/** Where the photos are in the bucket; private files go under PRIVATE_PREFIX (or their own bucket). */
const PHOTOS_PREFIX = "imagenes/";
export const PRIVATE_PREFIX = "privado/";
const STAGING_PREFIX = "restauracion/";
const PROBE_PREFIX = "comprobacion/";

function httpStatusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

export function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "NotFound" || name === "NoSuchKey" || httpStatusOf(error) === 404;
}

/** A client as every store needs it: checksums only where the API requires them (R2, Garage). */
export async function s3Client(settings: ObjectStoreSettings) {
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
/** Long-lived caching: a name always means the same bytes (docs/decisions/022-uploads.md). */
const IMMUTABLE = "public, max-age=31536000, immutable";

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

/** Where Diagnóstico writes its test object, in each bucket. */
const DIAGNOSTIC_PREFIX = ".diagnostico/";

/** How long each request of Diagnóstico's test may take. */
export const STORE_PROBE_MS = 4_000;

/**
 * Diagnóstico's test of the store, once and quickly (no retries): write a small object, read it
 * back and delete it, in the photos' bucket and in the private one. Each bucket's outcome in words:
 * null when it worked.
 */
export async function probeObjectStore(
  settings: ObjectStoreSettings,
): Promise<Array<{ bucket: string; variable: string; problem: string | null; code?: string }>> {
  const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await loadSdk();
  const client = new S3Client({
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: STORE_PROBE_MS, requestTimeout: STORE_PROBE_MS },
    maxAttempts: 1,
  });
  const where = settings.endpoint ?? "AWS S3";
  const targets: Array<[string, string]> = [[settings.bucket, "S3_BUCKET"]];
  if (settings.privateBucket) targets.push([settings.privateBucket, "S3_PRIVATE_BUCKET"]);
  try {
    return await Promise.all(
      targets.map(async ([bucket, variable]) => {
        const key = `${DIAGNOSTIC_PREFIX}${os.hostname()}-${process.pid}-${randomBytes(6).toString("hex")}`;
        const body = randomBytes(16).toString("hex");
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentType: "text/plain",
            }),
          );
          const read = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          const back = await read.Body!.transformToString();
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
          if (back !== body)
            return {
              bucket,
              variable,
              problem: `El almacén de objetos (${where}) devolvió otro contenido del que se escribió en «${bucket}»: revisa S3_ENDPOINT (puede ser un proxy o un caché delante).`,
            };
          return { bucket, variable, problem: null };
        } catch (error) {
          const e = (error ?? {}) as { code?: string; name?: string; message?: string };
          const cause = `${e.code ?? ""} ${e.name ?? ""} ${e.message ?? ""}`;
          const known = checkProblem(error, settings, variable);
          const code = e.code ?? e.name;
          if (known) return { bucket, variable, problem: known, code };
          if (/ECONNREFUSED/.test(cause))
            return {
              bucket,
              variable,
              code,
              problem: `El almacén de objetos ${where} no responde: nadie escucha en esa dirección (la conexión fue rechazada). Las fotos publicadas no se ven y no se pueden subir nuevas. Revisa que el servicio (Garage, MinIO…) esté en marcha y que S3_ENDPOINT sea su dirección.`,
            };
          if (/ENOTFOUND|EAI_AGAIN/.test(cause))
            return {
              bucket,
              variable,
              code,
              problem: `No se encontró el almacén de objetos ${where}: el nombre no existe en el DNS. Revisa S3_ENDPOINT.`,
            };
          if (/Timeout|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/i.test(cause))
            return {
              bucket,
              variable,
              code,
              problem: `El almacén de objetos ${where} no respondió en ${STORE_PROBE_MS / 1000} segundos: las fotos publicadas no se ven. Revisa que el servicio esté en marcha, S3_ENDPOINT y el firewall entre este servidor y el almacén.`,
            };
          const status = httpStatusOf(error);
          return {
            bucket,
            variable,
            code,
            problem: `El almacén de objetos ${where} falló al escribir, leer o borrar en «${bucket}» (${variable})${status ? `: respondió ${status}` : ""} (${e.message ?? String(error)}). Revisa que el servicio esté en marcha y las variables S3_*.`,
          };
        }
      }),
    );
  } finally {
    client.destroy();
  }
}
