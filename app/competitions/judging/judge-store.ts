// What a judge's screen keeps on the phone (IndexedDB, decision 059), so that it works without a
// connection: each category's state as last received, and this phone's entries — those waiting to
// be sent and, once answered, what the server said (kept so that a refusal that arrives later, the
// category marked final meanwhile say, is read and never silently lost). Browser only.
import type { EntryFields, EntryIntent, EntryReply } from "./judge-entry";

const DB_NAME = "ayllu-jurado";
const BOARDS = "tableros";
const ENTRIES = "anotaciones";
/** Answered entries kept per category, newest first. */
const KEEP_ANSWERED = 30;

/** One entry made on this phone. */
export interface StoredEntry {
  /** The client entry id the server keeps: a resend stores nothing twice. */
  id: string;
  categoryId: string;
  intent: EntryIntent;
  fields: EntryFields;
  /** What it says, for the list: 'Vuelta 2 de «Los Cóndores»: 12,345 s'. */
  label: string;
  /** When it was made here (ISO 8601). */
  at: string;
  /** The server's answer; null while it waits to be sent. */
  answer: EntryReply | null;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore(BOARDS, { keyPath: "category.id" });
      const entries = db.createObjectStore(ENTRIES, { keyPath: "id" });
      entries.createIndex("categoryId", "categoryId");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error);
    };
  });
  return opening;
}

export async function loadBoard<T>(categoryId: string): Promise<T | undefined> {
  const db = await open();
  return (await done(db.transaction(BOARDS).objectStore(BOARDS).get(categoryId))) as T | undefined;
}

export async function saveBoard(board: { category: { id: string } }): Promise<void> {
  const db = await open();
  const tx = db.transaction(BOARDS, "readwrite");
  tx.objectStore(BOARDS).put(board);
  await finished(tx);
}

/** This category's entries made on this phone, oldest first. */
export async function storedEntries(categoryId: string): Promise<StoredEntry[]> {
  const db = await open();
  const index = db.transaction(ENTRIES).objectStore(ENTRIES).index("categoryId");
  const items = (await done(index.getAll(categoryId))) as StoredEntry[];
  return items.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

export async function putEntry(entry: StoredEntry): Promise<void> {
  const db = await open();
  const tx = db.transaction(ENTRIES, "readwrite");
  tx.objectStore(ENTRIES).put(entry);
  await finished(tx);
}

/** Records the server's answer and forgets the oldest answered entries past the few kept. */
export async function answerEntry(entry: StoredEntry, answer: EntryReply): Promise<void> {
  await putEntry({ ...entry, answer });
  const answered = (await storedEntries(entry.categoryId)).filter((e) => e.answer !== null);
  const old = answered.slice(0, Math.max(0, answered.length - KEEP_ANSWERED));
  if (old.length === 0) return;
  const db = await open();
  const tx = db.transaction(ENTRIES, "readwrite");
  for (const e of old) tx.objectStore(ENTRIES).delete(e.id);
  await finished(tx);
}
