// What a judge's screen keeps on the phone (IndexedDB, decision 059), so that it works without a
// connection: each category's state as last received, and this phone's entries — those waiting to
// be sent and, once answered, what the server said (kept so that a refusal that arrives later, the
// category marked final meanwhile say, is read and never silently lost). Everything is kept per
// account: on a phone shared by two judges, neither sees nor sends the other's. Browser only.
import { databaseExists, databaseOpener, done, finished } from "~/kernel/idb";
import type { EntryFields, EntryIntent, EntryReply } from "./judge-entry";

const DB_NAME = "ayllu-jurado";
const BOARDS = "tableros";
const ENTRIES = "anotaciones";
/** Answered entries kept per category, newest first; refusals are kept until answered again. */
const KEEP_ANSWERED = 30;

/** One entry made on this phone. */
export interface StoredEntry {
  /** The client entry id the server keeps: a resend stores nothing twice. */
  id: string;
  categoryId: string;
  /** The account it was made under: only that account sends it. */
  userId: string;
  intent: EntryIntent;
  fields: EntryFields;
  /** What it says, for the list: 'Vuelta 2 de «Los Cóndores»: 12,345 s'. */
  label: string;
  /** When it was made here (ISO 8601). */
  at: string;
  /** The server's answer; null while it waits to be sent. */
  answer: EntryReply | null;
}

/** A category's state as a judge last received it. */
export interface SavedBoard {
  category: { id: string };
  judgeId: string;
  generatedAt: string;
}

// Version 2: boards per account and category, entries with their account.
const open = databaseOpener(DB_NAME, 2, (db) => {
  for (const name of [...db.objectStoreNames]) db.deleteObjectStore(name);
  db.createObjectStore(BOARDS, { keyPath: ["judgeId", "category.id"] });
  const entries = db.createObjectStore(ENTRIES, { keyPath: "id" });
  entries.createIndex("categoryId", "categoryId");
});

export async function loadBoard<T>(userId: string, categoryId: string): Promise<T | undefined> {
  const db = await open();
  const store = db.transaction(BOARDS).objectStore(BOARDS);
  return (await done(store.get([userId, categoryId]))) as T | undefined;
}

export async function saveBoard(board: SavedBoard): Promise<void> {
  const db = await open();
  const tx = db.transaction(BOARDS, "readwrite");
  tx.objectStore(BOARDS).put(board);
  await finished(tx);
}

/** This category's entries made on this phone under this account, oldest first. */
export async function storedEntries(userId: string, categoryId: string): Promise<StoredEntry[]> {
  const db = await open();
  const index = db.transaction(ENTRIES).objectStore(ENTRIES).index("categoryId");
  const items = (await done(index.getAll(categoryId))) as StoredEntry[];
  return items
    .filter((e) => e.userId === userId)
    .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

export async function putEntry(entry: StoredEntry): Promise<void> {
  const db = await open();
  const tx = db.transaction(ENTRIES, "readwrite");
  tx.objectStore(ENTRIES).put(entry);
  await finished(tx);
}

/**
 * Records the server's answer, unless another tab recorded one first, and forgets the oldest
 * accepted entries past the few kept (refusals stay, to be read).
 */
export async function answerEntry(entry: StoredEntry, answer: EntryReply): Promise<void> {
  const db = await open();
  const tx = db.transaction(ENTRIES, "readwrite");
  const store = tx.objectStore(ENTRIES);
  const current = (await done(store.get(entry.id))) as StoredEntry | undefined;
  if (current && current.answer === null) store.put({ ...current, answer });
  await finished(tx);
  const accepted = (await storedEntries(entry.userId, entry.categoryId)).filter(
    (e) => e.answer?.ok === true,
  );
  const old = accepted.slice(0, Math.max(0, accepted.length - KEEP_ANSWERED));
  if (old.length === 0) return;
  const pruning = db.transaction(ENTRIES, "readwrite");
  for (const e of old) pruning.objectStore(ENTRIES).delete(e.id);
  await finished(pruning);
}

/** Entries waiting on this phone to be sent, under any account (what signing out would delete). */
export async function unsentEntries(): Promise<number> {
  if (!(await databaseExists(DB_NAME))) return 0;
  const db = await open();
  const all = (await done(db.transaction(ENTRIES).objectStore(ENTRIES).getAll())) as StoredEntry[];
  return all.filter((e) => e.answer === null).length;
}
