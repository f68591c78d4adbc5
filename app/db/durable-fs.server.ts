// PGlite keeps its files through Emscripten's NODEFS, whose fsync and fdatasync do nothing: a
// committed transaction reaches the operating system's cache (it survives a killed process) but
// not the disk (it would not survive a power cut). This module notes which files and folders of a
// data directory the engine writes, and `flush()` fsyncs them; the embedded database calls it after
// every statement and transaction it runs, before the caller hears that the write succeeded
// (docs/decisions/017-proxies-bodies-durability.md).
//
// NODEFS calls Node's synchronous fs functions through the shared `fs` module object; they are
// wrapped here once and, for any path outside a tracked folder, do exactly what Node's do.
import fs from "node:fs";
import path from "node:path";

export interface DurableDir {
  /** Fsyncs every file and folder written since the last flush; returns how many were synced. */
  flush(): number;
  /** fsync calls made so far for this folder. */
  fsyncs(): number;
  /** Stops tracking (after the database has closed). */
  release(): void;
}

interface Tracked {
  root: string;
  dirty: Set<string>;
  fsyncs: number;
}

const tracked = new Map<string, Tracked>();
const openFiles = new Map<number, { entry: Tracked; file: string }>();
let installed = false;

function owner(file: string): Tracked | undefined {
  for (const entry of tracked.values()) {
    if (file === entry.root || file.startsWith(entry.root + path.sep)) return entry;
  }
  return undefined;
}

function markPath(target: fs.PathLike, withParent: boolean) {
  if (typeof target !== "string") return;
  const file = path.resolve(target);
  const entry = owner(file);
  if (!entry) return;
  entry.dirty.add(file);
  if (withParent) entry.dirty.add(path.dirname(file));
}

function markFd(fd: number) {
  const open = openFiles.get(fd);
  if (open) open.entry.dirty.add(open.file);
}

function install() {
  if (installed) return;
  installed = true;
  const original = {
    openSync: fs.openSync,
    closeSync: fs.closeSync,
    writeSync: fs.writeSync,
    ftruncateSync: fs.ftruncateSync,
    truncateSync: fs.truncateSync,
    renameSync: fs.renameSync,
    unlinkSync: fs.unlinkSync,
    mkdirSync: fs.mkdirSync,
    rmdirSync: fs.rmdirSync,
    writeFileSync: fs.writeFileSync,
  };
  const patched: Partial<typeof fs> = {
    openSync(file: fs.PathLike, ...rest: unknown[]) {
      const fd = (original.openSync as (...args: unknown[]) => number)(file, ...rest);
      if (typeof file === "string") {
        const resolved = path.resolve(file);
        const entry = owner(resolved);
        if (entry) {
          openFiles.set(fd, { entry, file: resolved });
          const flags = rest[0];
          const creating =
            typeof flags === "number"
              ? (flags & fs.constants.O_CREAT) !== 0
              : typeof flags === "string" && /[wax]/.test(flags);
          if (creating) entry.dirty.add(path.dirname(resolved));
        }
      }
      return fd;
    },
    closeSync(fd: number) {
      openFiles.delete(fd);
      return original.closeSync(fd);
    },
    writeSync(fd: number, ...rest: unknown[]) {
      markFd(fd);
      return (original.writeSync as (...args: unknown[]) => number)(fd, ...rest);
    },
    ftruncateSync(fd: number, len?: number) {
      markFd(fd);
      return original.ftruncateSync(fd, len);
    },
    truncateSync(file: fs.PathLike, len?: number) {
      markPath(file, false);
      return original.truncateSync(file, len);
    },
    renameSync(from: fs.PathLike, to: fs.PathLike) {
      original.renameSync(from, to);
      markPath(from, true);
      markPath(to, true);
    },
    unlinkSync(file: fs.PathLike) {
      original.unlinkSync(file);
      markPath(file, true);
    },
    rmdirSync(dir: fs.PathLike, options?: fs.RmDirOptions) {
      original.rmdirSync(dir, options);
      markPath(dir, true);
    },
    mkdirSync(dir: fs.PathLike, options?: fs.MakeDirectoryOptions | fs.Mode | null) {
      const made = (original.mkdirSync as (...args: unknown[]) => string | undefined)(dir, options);
      markPath(dir, true);
      return made;
    },
    writeFileSync(file: fs.PathOrFileDescriptor, ...rest: unknown[]) {
      (original.writeFileSync as (...args: unknown[]) => void)(file, ...rest);
      if (typeof file === "number") markFd(file);
      else markPath(file as fs.PathLike, true);
    },
  };
  Object.assign(fs, patched);
}

function fsyncPath(target: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_RDONLY);
  } catch (error) {
    // The engine removed it after writing it (a dropped table, a recycled WAL segment): the
    // removal itself is durable once its folder is synced, which is in the same set.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** Starts noting what the engine writes under `root` (a PGlite data folder). */
export function trackDurability(root: string): DurableDir {
  install();
  const resolved = path.resolve(root);
  const entry: Tracked = { root: resolved, dirty: new Set(), fsyncs: 0 };
  tracked.set(resolved, entry);
  return {
    flush() {
      if (entry.dirty.size === 0) return 0;
      const pending = [...entry.dirty];
      entry.dirty.clear();
      // Files first, then the folders that name them.
      pending.sort((a, b) => b.length - a.length);
      let synced = 0;
      for (const target of pending) {
        if (fsyncPath(target)) synced++;
      }
      entry.fsyncs += synced;
      return synced;
    },
    fsyncs: () => entry.fsyncs,
    release() {
      if (tracked.get(resolved) === entry) tracked.delete(resolved);
      for (const [fd, open] of openFiles) if (open.entry === entry) openFiles.delete(fd);
    },
  };
}
