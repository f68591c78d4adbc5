// npm run move-photos: copies every photo from one store into the other (the folder into the
// bucket, or back), while the site keeps running. Photos are named by content, so a photo the
// destination has is skipped and a rerun goes on where a stopped one left off
// (docs/decisions/033-backups-and-moves-with-the-bucket.md).
import sharp from "sharp";
import { UPLOAD_FILE_NAME } from "~/kernel/images";
import type { UploadStorage } from "./storage.server";

export interface MoveProblem {
  name: string;
  /** In Spanish, for the operator. */
  problem: string;
}

export interface MoveReport {
  total: number;
  copied: number;
  /** Already in the destination (an earlier run, or an upload made there). */
  present: number;
  problems: MoveProblem[];
}

/**
 * What is wrong with a stored photo's bytes, or null: a WebP file says its own length in its
 * header (a file cut short is caught), and its width must be the one its name says.
 */
export async function photoProblem(name: string, data: Buffer): Promise<string | null> {
  const width = Number(UPLOAD_FILE_NAME.exec(name)?.[2]);
  if (
    data.length < 12 ||
    data.toString("latin1", 0, 4) !== "RIFF" ||
    data.toString("latin1", 8, 12) !== "WEBP"
  )
    return "no es una imagen WebP";
  const declared = data.readUInt32LE(4) + 8;
  if (declared !== data.length) return `está incompleta (${data.length} de ${declared} bytes)`;
  let actual: number | undefined;
  try {
    actual = (await sharp(data).metadata()).width;
  } catch {
    return "no se puede leer como imagen";
  }
  if (actual !== width)
    return `su nombre no corresponde a su contenido (el nombre dice ${width} px de ancho, la imagen tiene ${actual ?? "?"})`;
  return null;
}

/**
 * Copies what `from` has and `to` lacks, `parallel` at a time. A photo that is missing by the time
 * it is read (removed as unused meanwhile), cut short, or whose name does not match its content is
 * reported and skipped; the rest go on. `onProgress` is told after each photo.
 */
export async function movePhotos(
  from: UploadStorage,
  to: UploadStorage,
  options: { parallel?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<MoveReport> {
  const names = (await from.list()).map((f) => f.name).sort();
  const report: MoveReport = { total: names.length, copied: 0, present: 0, problems: [] };
  let next = 0;
  let done = 0;
  const copyOne = async (name: string) => {
    if (await to.has(name)) {
      report.present++;
      return;
    }
    let data: Buffer;
    try {
      data = await from.read(name);
    } catch (error) {
      if (!(await from.has(name).catch(() => true))) {
        report.problems.push({
          name,
          problem: "ya no está en el origen (¿se borró por no usarse?)",
        });
        return;
      }
      throw error;
    }
    const problem = await photoProblem(name, data);
    if (problem) {
      report.problems.push({ name, problem });
      return;
    }
    await to.write(name, data);
    report.copied++;
  };
  await Promise.all(
    Array.from({ length: options.parallel ?? 4 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        await copyOne(name);
        options.onProgress?.(++done, names.length);
      }
    }),
  );
  report.problems.sort((a, b) => a.name.localeCompare(b.name));
  return report;
}
