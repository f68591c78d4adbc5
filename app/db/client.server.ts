// The database: PostgreSQL through DATABASE_URL, or embedded PostgreSQL (PGlite) in a folder.
// Both get the same Drizzle schema and the same migrations in ./drizzle.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { MIGRATIONS_DIR } from "~/kernel/paths.server";
import { trackDurability, type DurableDir } from "./durable-fs.server";
import * as schema from "./schema.server";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of `Db`: what `db.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "embedded" | "postgres";
  /** Where the data lives, for log lines: a folder, or the server without its password. */
  location: string;
  /** Closes connections and, for the embedded database, releases the data folder. */
  close(): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel` (from this process or any
   * other on the same database). Resolves with a function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Housekeeping PostgreSQL's autovacuum does on a server, which the embedded database has not:
   * VACUUM ANALYZE, so that the planner has statistics and counts use index-only scans.
   */
  maintain?(): Promise<void>;
  /** fsync calls made so far to keep acknowledged writes on disk (embedded database only). */
  fsyncs?(): number;
}

export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

/**
 * The database was migrated by a newer version of Ayllu than this one (an upgrade rolled back by
 * hand, an older image started on a newer database): this version refuses to start rather than
 * run on tables it does not know (docs/decisions/036-upgrades-that-roll-back.md).
 */
export class DatabaseTooNewError extends Error {
  override name = "DatabaseTooNewError";
}

/** The newest migration this version knows: its tag and its time, as the journal gives them. */
export function newestKnownMigration(): { tag: string; when: number } {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
  ) as { entries: { tag: string; when: number }[] };
  // Drizzle applies a migration only when its time is later than the newest applied one, so the
  // newest is the one with the latest time (not always the last written).
  const last = journal.entries.reduce<{ tag: string; when: number } | null>(
    (newest, entry) => (!newest || entry.when > newest.when ? entry : newest),
    null,
  );
  if (!last) throw new Error("El diario de migraciones está vacío");
  return { tag: last.tag, when: last.when };
}

/**
 * The migration level of the database: how many migrations it has applied and the time of the
 * newest (Drizzle's table records each migration's journal time), or null before the first.
 */
export async function appliedMigrations(
  query: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<{ count: number; newest: number } | null> {
  const present = await query("select to_regclass('drizzle.__drizzle_migrations') as t");
  if (!(present.rows[0] as { t: unknown } | undefined)?.t) return null;
  const { rows } = await query(
    "select count(*)::int as count, coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations",
  );
  const row = rows[0] as { count: number; newest: string };
  return { count: Number(row.count), newest: Number(row.newest) };
}

/** Throws DatabaseTooNewError when the database holds a migration newer than this version knows. */
async function refuseNewerDatabase(query: (text: string) => Promise<{ rows: unknown[] }>) {
  const applied = await appliedMigrations(query);
  const known = newestKnownMigration();
  if (applied && applied.newest > known.when) {
    throw new DatabaseTooNewError(
      "La base de datos fue actualizada por una versión más nueva de Ayllu que esta " +
        `(tiene una migración posterior a ${known.tag}, la última que esta versión conoce). ` +
        "Esta versión no arranca sobre ella para no dañar los datos: usa la versión más nueva, " +
        "o restaura una copia de seguridad hecha con esta versión (./ayllu restore ARCHIVO).",
    );
  }
}

/**
 * Drizzle applies a migration only when its journal time is later than the newest applied one.
 * Migrations 0004–0008 were given round times ahead of the clock, so 0009–0012, written later,
 * carry earlier times: a database migrated through 0008 before they existed would never get them.
 * This applies, before Drizzle runs, each migration whose time is earlier than one before it in
 * the journal, when the database lacks it (by Drizzle's own hash of the file) and Drizzle would
 * pass it over; each in one transaction with its row in Drizzle's table, as Drizzle records it.
 * Journal times now only grow (tests/unit/migrations.test.ts), so the list cannot grow either.
 */
async function applyPassedOverMigrations(
  query: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>,
  transaction: (
    run: (q: (text: string, params?: unknown[]) => Promise<unknown>) => Promise<void>,
  ) => Promise<void>,
) {
  const present = await query("select to_regclass('drizzle.__drizzle_migrations') as t");
  if (!(present.rows[0] as { t: unknown } | undefined)?.t) return;
  const { rows } = await query(
    "select hash, created_at::text as created_at from drizzle.__drizzle_migrations",
  );
  const applied = new Set((rows as { hash: string }[]).map((r) => r.hash));
  const newest = Math.max(
    0,
    ...(rows as { created_at: string }[]).map((r) => Number(r.created_at)),
  );
  let latestBefore = 0;
  for (const migration of readMigrationFiles({ migrationsFolder: migrationsFolder() })) {
    const outOfOrder = migration.folderMillis < latestBefore;
    latestBefore = Math.max(latestBefore, migration.folderMillis);
    if (!outOfOrder || applied.has(migration.hash) || migration.folderMillis > newest) continue;
    await transaction(async (q) => {
      for (const statement of migration.sql) if (statement.trim()) await q(statement);
      await q('insert into drizzle.__drizzle_migrations ("hash", "created_at") values ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
    });
  }
}

function migrationsFolder(): string {
  if (!fs.existsSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"))) {
    throw new Error(`No se encontró la carpeta de migraciones ${MIGRATIONS_DIR}`);
  }
  return MIGRATIONS_DIR;
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is a single-process database: two processes writing one folder corrupt it. A lock file
 * holding the owner's pid keeps a second process out; a lock left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "ayllu.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(owner) && pidIsAlive(owner)) {
        throw new DataDirInUseError(
          `La carpeta de datos ${dataDir} ya está abierta por otro proceso (pid ${owner}). ` +
            "Detén ese proceso, o usa otra carpeta con DATA_DIR, o un servidor PostgreSQL con DATABASE_URL.",
        );
      }
      fs.unlinkSync(lockPath);
    }
  }
  throw new DataDirInUseError(`No se pudo bloquear la carpeta de datos ${dataDir}`);
}

/** Opens the embedded database in `dataDir` (or in memory when `dataDir` is null) and migrates it. */
export async function openEmbedded(dataDir: string | null): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  const durable = dataDir ? trackDurability(path.join(dataDir, "pgdata")) : null;
  try {
    // PostgreSQL's buffer cache lives inside PGlite's WebAssembly memory, which never shrinks:
    // 32 MB holds a community site's hot rows and keeps the process within its memory budget.
    const options = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"] };
    const client = dataDir
      ? await PGlite.create(path.join(dataDir, "pgdata"), options)
      : await PGlite.create(options);
    if (durable) makeDurable(client, durable);
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    try {
      await refuseNewerDatabase((text) => client.query(text));
    } catch (error) {
      await client.close();
      throw error;
    }
    await applyPassedOverMigrations(
      (text, params) => client.query(text, params),
      (run) =>
        client.transaction((tx) => run((text, params) => tx.query(text, params))).then(() => {}),
    );
    await migratePglite(drizzlePglite({ client, schema }), {
      migrationsFolder: migrationsFolder(),
    });
    return {
      db,
      kind: "embedded",
      location: dataDir ?? "memoria",
      listen: (channel, onMessage) => client.listen(channel, onMessage),
      maintain: async () => {
        // The site's own tables only: the system catalogs take far longer and gain little.
        const { rows } = await client.query<{ name: string }>(
          "select quote_ident(tablename) as name from pg_tables where schemaname = 'public'",
        );
        if (rows.length > 0)
          await client.exec(`vacuum analyze ${rows.map((r) => r.name).join(", ")}`);
      },
      fsyncs: () => durable?.fsyncs() ?? 0,
      async close() {
        try {
          await client.close();
          // Whatever closing wrote (a last checkpoint) goes to disk before the folder is let go.
          durable?.flush();
        } finally {
          durable?.release();
          unlock();
        }
      },
    };
  } catch (error) {
    durable?.release();
    unlock();
    throw error;
  }
}

/**
 * Every statement and transaction of the embedded database resolves only after what it wrote is
 * fsynced (see durable-fs.server.ts). Inside a transaction, statements go through the transaction
 * object and are synced once, at its end.
 */
function makeDurable(client: PGlite, durable: DurableDir) {
  const wrap =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } finally {
        durable.flush();
      }
    };
  client.query = wrap(client.query.bind(client)) as typeof client.query;
  client.exec = wrap(client.exec.bind(client)) as typeof client.exec;
  client.transaction = wrap(client.transaction.bind(client)) as typeof client.transaction;
}

/** Connects to PostgreSQL at `url` and migrates it, one process at a time. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  const listen = postgresListener(url);
  try {
    const db = drizzleNodePg({ client: pool, schema });
    const lockClient = await pool.connect();
    try {
      // Several processes may start at once against one server; only one migrates at a time.
      await lockClient.query("select pg_advisory_lock(7242001)");
      await refuseNewerDatabase((text) => lockClient.query(text));
      await applyPassedOverMigrations(
        (text, params) => lockClient.query(text, params),
        async (run) => {
          await lockClient.query("begin");
          try {
            await run((text, params) => lockClient.query(text, params));
            await lockClient.query("commit");
          } catch (error) {
            await lockClient.query("rollback");
            throw error;
          }
        },
      );
      await migrateNodePg(drizzleNodePg({ client: lockClient, schema }), {
        migrationsFolder: migrationsFolder(),
      });
    } finally {
      await lockClient.query("select pg_advisory_unlock(7242001)").catch(() => {});
      lockClient.release();
    }
    const where = new URL(url);
    where.password = "";
    return {
      db: db as unknown as Db,
      kind: "postgres",
      location: where.toString(),
      listen,
      close: () => pool.end(),
    };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

type Handler = (payload: string) => void;

/**
 * LISTEN needs a connection of its own, outside the pool, held for as long as someone listens.
 * A process holds one for all its channels and listeners: a notification reaches every listener
 * of its channel in the same turn, in the order they began listening, so no request is answered
 * between one listener hearing of a change and the next (the page cache and the landing sections
 * once heard the same NOTIFY on two connections, and a page rendered in between was kept with the
 * old content). If the connection drops (a server restart, a network cut) a new one is made after
 * a short pause.
 */
function postgresListener(url: string): Database["listen"] {
  const channels = new Map<string, Set<Handler>>();
  let current: Promise<pg.Client> | null = null;
  let retry: NodeJS.Timeout | null = null;

  const dispatch = (message: pg.Notification) => {
    for (const handler of [...(channels.get(message.channel) ?? [])]) {
      try {
        handler(message.payload ?? "");
      } catch (error) {
        console.error(`Un aviso del canal ${message.channel} no se pudo atender:`, error);
      }
    }
  };

  const reconnectLater = () => {
    if (retry || channels.size === 0) return;
    retry = setTimeout(() => {
      retry = null;
      if (channels.size > 0) connection().catch(() => {});
    }, 1000);
    retry.unref();
  };

  const connection = (): Promise<pg.Client> => {
    if (current) return current;
    const client = new pg.Client({ connectionString: url });
    client.on("notification", dispatch);
    const made = (async () => {
      await client.connect();
      for (const channel of channels.keys()) await client.query(`LISTEN ${channel}`);
      return client;
    })();
    current = made;
    const lost = () => {
      if (current !== made) return;
      current = null;
      client.end().catch(() => {});
      reconnectLater();
    };
    client.on("error", lost);
    client.on("end", lost);
    made.catch(lost);
    return made;
  };

  const stopListening = async (channel: string, handler: Handler) => {
    const handlers = channels.get(channel);
    if (!handlers?.delete(handler) || handlers.size > 0) return;
    channels.delete(channel);
    const made = current;
    if (channels.size === 0) {
      current = null;
      if (retry) clearTimeout(retry);
      retry = null;
      await made?.then((client) => client.end()).catch(() => {});
    } else {
      await made?.then((client) => client.query(`UNLISTEN ${channel}`)).catch(() => {});
    }
  };

  return async (channel, onMessage) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel))
      throw new Error(`Nombre de canal no válido: ${channel}`);
    // Each call is a listener of its own, even when it passes a function already listening.
    const handler: Handler = (payload) => onMessage(payload);
    const handlers = channels.get(channel);
    if (handlers) handlers.add(handler);
    else channels.set(channel, new Set([handler]));
    try {
      // Once more for a channel already listened to: it costs nothing, and this resolves only
      // once the connection listens to it (even when it was made before the channel was asked for).
      await (await connection()).query(`LISTEN ${channel}`);
    } catch (error) {
      await stopListening(channel, handler);
      throw error;
    }
    return () => stopListening(channel, handler);
  };
}

export function openDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openEmbedded(config.dataDir);
}

/** True when the database answers a trivial query. */
export async function databaseIsUp(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
