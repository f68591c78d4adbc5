// npm run move-photos -- to-bucket | to-folder
// Copies the site's photos from the folder (UPLOADS_DIR) into the bucket (S3_*), or back, with a
// progress bar. It may run while the site runs, and again: photos are named by content, so those
// the destination has are skipped. A photo that is missing, cut short or whose name does not match
// its content is reported and skipped; the copy goes on. Nothing is deleted from the origin.
// See docs/varias-maquinas.md for when to switch the configuration.
import { ConfigError, loadConfig } from "../app/kernel/config.server";
import { movePhotos } from "../app/uploads/move-photos.server";
import { uploadStorage } from "../app/uploads/folder-storage.server";
import { checkObjectStore, objectStorage } from "../app/uploads/object-storage.server";

const USAGE =
  "Uso: npm run move-photos -- to-bucket (de UPLOADS_DIR al bucket de S3_BUCKET) | to-folder (del bucket a UPLOADS_DIR)";

/** A bar on a terminal (redrawn in place); elsewhere a line every tenth. */
function progress(stream: NodeJS.WriteStream): (done: number, total: number) => void {
  let lastTenth = -1;
  return (done, total) => {
    if (stream.isTTY) {
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      stream.write(
        `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} fotos${done === total ? "\n" : ""}`,
      );
      return;
    }
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (tenth !== lastTenth || done === total) {
      lastTenth = tenth;
      stream.write(`${done}/${total} fotos\n`);
    }
  };
}

async function main(argv: string[]): Promise<number> {
  const [direction, ...rest] = argv;
  if ((direction !== "to-bucket" && direction !== "to-folder") || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  if (!config.objectStore)
    throw new ConfigError(
      "S3_BUCKET falta: configura el almacén de objetos (S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) para copiar las fotos.",
    );
  await checkObjectStore(config.objectStore, { log: console.log });
  const folder = uploadStorage(config.uploadsDir);
  const bucket = objectStorage(config.objectStore, config.uploadsDir);
  const [from, to] = direction === "to-bucket" ? [folder, bucket] : [bucket, folder];
  console.log(`Copiando las fotos de ${from.location} a ${to.location}…`);
  const report = await movePhotos(from, to, { onProgress: progress(process.stderr) });
  console.log(
    `${report.total} fotos en el origen: ${report.copied} copiadas, ${report.present} ya estaban en el destino, ${report.problems.length} con problemas.`,
  );
  for (const { name, problem } of report.problems) console.log(`  ${name}: ${problem}`);
  return report.problems.length > 0 ? 3 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(`Error: ${error.message}`);
    else
      console.error(
        `Error: la copia se detuvo (${error instanceof Error ? error.message : String(error)}). Vuelve a ejecutarla: sigue donde quedó.`,
      );
    process.exit(1);
  },
);
