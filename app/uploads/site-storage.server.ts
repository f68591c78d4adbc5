// The site's stores as the configuration says: the bucket when S3_BUCKET is set, the folders
// otherwise (docs/decisions/032-object-storage.md).
import type { Config } from "~/kernel/config.server";
import { uploadStorage } from "./folder-storage.server";
import { objectStorage } from "./object-storage.server";
import { privateFolderStorage, privateObjectStorage } from "./private-storage.server";
import type { PrivateStorage, UploadStorage } from "./storage.server";

const stores = new Map<string, UploadStorage>();

/**
 * The site's store as the configuration says: the bucket when S3_BUCKET is set, the folder
 * otherwise. One per configuration in a process (the bucket's client keeps its connections).
 */
export function siteStorage(config: Pick<Config, "uploadsDir" | "objectStore">): UploadStorage {
  const id = JSON.stringify([config.uploadsDir, config.objectStore]);
  let store = stores.get(id);
  if (!store) {
    store = config.objectStore
      ? objectStorage(config.objectStore, config.uploadsDir)
      : uploadStorage(config.uploadsDir);
    stores.set(id, store);
  }
  return store;
}

const privateStores = new Map<string, PrivateStorage>();

/** The site's private store as the configuration says, one per configuration in a process. */
export function sitePrivateStorage(
  config: Pick<Config, "privateDir" | "objectStore">,
): PrivateStorage {
  const id = JSON.stringify([config.privateDir, config.objectStore]);
  let store = privateStores.get(id);
  if (!store) {
    store = config.objectStore
      ? privateObjectStorage(config.objectStore)
      : privateFolderStorage(config.privateDir);
    privateStores.set(id, store);
  }
  return store;
}
