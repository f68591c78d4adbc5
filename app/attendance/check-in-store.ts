// What the check-in page keeps on the admin's phone (IndexedDB), so that it works without a
// connection: each event's participant list as last received, and the check-ins not yet sent.
// Browser only.
import { databaseExists, databaseOpener, done, finished } from "~/kernel/idb";

const DB_NAME = "ayllu-registro";
const LISTS = "listas";
const PENDING = "pendientes";

/** A check-in made on this phone that the server has not confirmed yet. */
export interface PendingCheckIn {
  eventId: string;
  userId: string;
  token: string;
  /** When it was marked here (ISO 8601): the server keeps the earliest time. */
  at: string;
}

const open = databaseOpener(DB_NAME, 1, (db) => {
  db.createObjectStore(LISTS, { keyPath: "event.id" });
  const pending = db.createObjectStore(PENDING, { keyPath: ["eventId", "userId"] });
  pending.createIndex("eventId", "eventId");
});

/** The list last kept for this event, if any. */
export async function loadList<T extends { event: { id: string } }>(
  eventId: string,
): Promise<T | undefined> {
  const db = await open();
  return (await done(db.transaction(LISTS).objectStore(LISTS).get(eventId))) as T | undefined;
}

export async function saveList(list: { event: { id: string } }): Promise<void> {
  const db = await open();
  const tx = db.transaction(LISTS, "readwrite");
  tx.objectStore(LISTS).put(list);
  await finished(tx);
}

/** This event's check-ins waiting to be sent, oldest first. */
export async function pendingCheckIns(eventId: string): Promise<PendingCheckIn[]> {
  const db = await open();
  const index = db.transaction(PENDING).objectStore(PENDING).index("eventId");
  const items = (await done(index.getAll(eventId))) as PendingCheckIn[];
  return items.sort((a, b) => a.at.localeCompare(b.at));
}

/** Queues a check-in; a person already queued keeps their first time. */
export async function queueCheckIn(item: PendingCheckIn): Promise<void> {
  const db = await open();
  const tx = db.transaction(PENDING, "readwrite");
  const store = tx.objectStore(PENDING);
  const existing = (await done(store.get([item.eventId, item.userId]))) as
    PendingCheckIn | undefined;
  if (!existing) store.put(item);
  await finished(tx);
}

export async function forgetCheckIn(eventId: string, userId: string): Promise<void> {
  const db = await open();
  const tx = db.transaction(PENDING, "readwrite");
  tx.objectStore(PENDING).delete([eventId, userId]);
  await finished(tx);
}

/** Every event's check-ins waiting on this phone (what signing out would delete). */
export async function unsentCheckIns(): Promise<number> {
  if (!(await databaseExists(DB_NAME))) return 0;
  const db = await open();
  return done(db.transaction(PENDING).objectStore(PENDING).count());
}
