// The one place uploaded files are written, read and deleted: a folder (UPLOADS_DIR). Another
// store (an object store shared by several machines) would replace this module alone.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { UPLOAD_FILE_NAME } from "~/kernel/images";

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

export function uploadStorage(dir: string): UploadStorage {
  const file = (name: string) => path.join(dir, checkedName(name));
  const has = (name: string) =>
    fs.stat(file(name)).then(
      (s) => s.isFile(),
      () => false,
    );
  return {
    dir,
    identity: `folder:${os.hostname()}:${path.resolve(dir)}`,
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
