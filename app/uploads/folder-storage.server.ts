// The folder store: uploaded photos in UPLOADS_DIR on this machine (docs/decisions/022-uploads.md).
import os from "node:os";
import fs from "node:fs/promises";
import path from "node:path";
import express from "express";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import {
  checkedName,
  syncFolder,
  temporaryName,
  writeSynced,
  type UploadStorage,
} from "./storage.server";

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
