// The one place uploaded files are written, read and deleted: a folder (UPLOADS_DIR). Another
// store (an object store shared by several machines) would replace this module alone.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { UPLOAD_FILE_NAME } from "~/lib/uploads";

export interface UploadStorage {
  readonly dir: string;
  /** Names of the stored files (content hash and width), with when each was written. */
  list(): Promise<{ name: string; modifiedMs: number }[]>;
  has(name: string): Promise<boolean>;
  read(name: string): Promise<Buffer>;
  /** Writes a file whole or not at all, and on disk before it resolves. */
  write(name: string, data: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

function checkedName(name: string): string {
  if (!UPLOAD_FILE_NAME.test(name)) throw new Error(`Nombre de archivo subido no válido: ${name}`);
  return name;
}

export function uploadStorage(dir: string): UploadStorage {
  const file = (name: string) => path.join(dir, checkedName(name));
  return {
    dir,
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
    async has(name) {
      return fs.stat(file(name)).then(
        (s) => s.isFile(),
        () => false,
      );
    },
    read(name) {
      return fs.readFile(file(name));
    },
    async write(name, data) {
      const target = file(name);
      await fs.mkdir(dir, { recursive: true });
      const temporary = path.join(dir, `.${randomBytes(8).toString("hex")}.tmp`);
      const handle = await fs.open(temporary, "w");
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, target);
      const folder = await fs.open(dir, "r");
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    },
    async remove(name) {
      await fs.rm(file(name), { force: true });
    },
  };
}
