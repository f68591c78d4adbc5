// What a process keeps from the database in memory: read once, then answered from memory until
// one of its tables changes — in this process or any other, heard through the NOTIFY the page
// triggers send after each commit (drizzle/0002_page_notify.sql). Kept only while the process
// hears those notifications; otherwise every call reads.
import type { Database, Db } from "./client.server";
import { PAGES_CHANNEL } from "./notify.server";

interface Memory<T> {
  listening: boolean;
  /** Moves on with every change: a read that began before one is not kept. */
  generation: number;
  value: Promise<T> | null;
}

export interface TableMemory<T> {
  /** Keeps this database's value from now on; resolves once listening, with how to stop. */
  watch(database: Pick<Database, "db" | "listen">): Promise<() => Promise<void>>;
  /** The value, from memory when this process watches the tables (a read if not). */
  load(db: Db): Promise<T>;
  /** Forgets the value, as after a write of this process's own. */
  forget(db: Db): void;
}

export function tableMemory<T>(
  tables: readonly string[],
  read: (db: Db) => Promise<T>,
): TableMemory<T> {
  const memories = new WeakMap<Db, Memory<T>>();
  const memoryOf = (db: Db): Memory<T> => {
    let memory = memories.get(db);
    if (!memory) {
      memory = { listening: false, generation: 0, value: null };
      memories.set(db, memory);
    }
    return memory;
  };
  const forget = (db: Db) => {
    const memory = memoryOf(db);
    memory.generation++;
    memory.value = null;
  };
  return {
    forget,
    async watch(database) {
      const stop = await database.listen(PAGES_CHANNEL, (table) => {
        if (tables.includes(table)) forget(database.db);
      });
      memoryOf(database.db).listening = true;
      return async () => {
        memoryOf(database.db).listening = false;
        forget(database.db);
        // The database may have gone already (closed under the server, or down).
        await stop().catch(() => {});
      };
    },
    load(db) {
      const memory = memoryOf(db);
      if (memory.value) return memory.value;
      const generation = memory.generation;
      const reading = read(db);
      if (memory.listening) {
        memory.value = reading;
        // A read that failed, or that began before a change, is not kept.
        reading.then(
          () => {
            if (memory.generation !== generation && memory.value === reading) memory.value = null;
          },
          () => {
            if (memory.value === reading) memory.value = null;
          },
        );
      }
      return reading;
    },
  };
}
