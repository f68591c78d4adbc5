// The private store: files nobody may fetch by address (the bank's QR, payment receipts), in a
// folder on this machine or under privado/ in a bucket (decisions 032, 048).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ObjectStoreSettings } from "~/kernel/config.server";
import { isMissing, loadSdk, PRIVATE_PREFIX, s3Client } from "./object-storage.server";
import {
  checkedPrivateName,
  PRIVATE_FILE_NAME,
  syncFolder,
  temporaryName,
  writeSynced,
  type PrivateStorage,
} from "./storage.server";

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
