// Backups in a bucket: `npm run backup` and `npm run restore` send and fetch a backup file at an
// s3://bucket/key address with the site's S3 settings (docs/decisions/032-object-storage.md), and
// the nightly copies under copias/ are listed and deleted by the folder's rotation.
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ConfigError, type ObjectStoreSettings } from "~/kernel/config.server";
import { isMissing, loadSdk, s3Client } from "~/uploads/object-storage.server";

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

/** The names of the objects directly under `prefix` (a "folder" of the bucket), without it. */
export async function listBackupCopies(
  settings: ObjectStoreSettings,
  where: { bucket: string; prefix: string },
): Promise<string[]> {
  const { ListObjectsV2Command } = await loadSdk();
  const client = await s3Client(settings);
  try {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: where.bucket,
          Prefix: where.prefix,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? "").slice(where.prefix.length);
        if (name && !name.includes("/")) names.push(name);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names;
  } finally {
    client.destroy();
  }
}

/** Deletes the objects `names` under `prefix`, one request each (a few a night). */
export async function deleteBackupCopies(
  settings: ObjectStoreSettings,
  where: { bucket: string; prefix: string },
  names: string[],
): Promise<void> {
  if (names.length === 0) return;
  const { DeleteObjectCommand } = await loadSdk();
  const client = await s3Client(settings);
  try {
    for (const name of names)
      await client.send(
        new DeleteObjectCommand({ Bucket: where.bucket, Key: `${where.prefix}${name}` }),
      );
  } finally {
    client.destroy();
  }
}
