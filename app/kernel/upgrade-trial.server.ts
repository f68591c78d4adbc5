// An upgrade's trial run (./ayllu upgrade, docs/produccion.md): the new version starts with the
// file `upgrade-trial` in its DATA_DIR and, while it is there, sends no mail and runs no timed
// job. The upgrade removes it once the new version answers; if the new version fails instead,
// the database goes back to its copy and the old version would send again whatever the new one
// had sent from the queue, or run again a job it ran.
import fs from "node:fs";
import path from "node:path";

export const UPGRADE_TRIAL_FILE = "upgrade-trial";

/** The small site's copy of its data folder kept by an upgrade (./ayllu, copy_database). */
export const PREVIOUS_DATA_COPY = "pgdata.antes";

/** How long an upgrade's copy of the data folder is kept once the new version runs. */
export const PREVIOUS_COPY_KEPT_MS = 24 * 60 * 60 * 1000;

/** True while an upgrade tries this version out: asked at each tick, so its end is seen. */
export function onUpgradeTrial(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, UPGRADE_TRIAL_FILE));
}

/**
 * Removes the upgrade's copy of the data folder once it is older than PREVIOUS_COPY_KEPT_MS
 * (the upgrade sets its time when it makes it) and no upgrade is being tried. Returns whether
 * it removed one.
 */
export async function prunePreviousDataCopy(dataDir: string, now: Date): Promise<boolean> {
  const copy = path.join(dataDir, PREVIOUS_DATA_COPY);
  let made: Date;
  try {
    made = (await fs.promises.stat(copy)).mtime;
  } catch {
    return false;
  }
  if (onUpgradeTrial(dataDir) || now.getTime() - made.getTime() < PREVIOUS_COPY_KEPT_MS)
    return false;
  await fs.promises.rm(copy, { recursive: true, force: true });
  console.log(
    `Se quitó la copia de la carpeta de datos de la última actualización (${copy}): la versión nueva ya funciona hace más de un día.`,
  );
  return true;
}
