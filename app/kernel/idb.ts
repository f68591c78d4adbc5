// IndexedDB as promises, for what pages keep on a phone to work without a connection: the door's
// check-in list and queue (decision 019), a judge's states and entries (decision 059). Browser only.

/** A request's result once it succeeds. */
export function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Once a transaction has committed (rejects when it fails or is aborted). */
export function finished(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/**
 * A database opened once per page: `upgrade` makes its stores when it is new or older than
 * `version`. A failed opening is tried again on the next call.
 */
export function databaseOpener(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
): () => Promise<IDBDatabase> {
  let opening: Promise<IDBDatabase> | null = null;
  return () => {
    opening ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(name, version);
      request.onupgradeneeded = () => upgrade(request.result);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        opening = null;
        reject(request.error);
      };
    });
    return opening;
  };
}

/**
 * Whether a database of this name exists on this device, so that a question about it does not
 * make an empty one. Where the browser cannot list them, it answers yes (opening makes it empty).
 */
export async function databaseExists(name: string): Promise<boolean> {
  if (typeof indexedDB === "undefined") return false;
  if (typeof indexedDB.databases !== "function") return true;
  return (await indexedDB.databases()).some((db) => db.name === name);
}
