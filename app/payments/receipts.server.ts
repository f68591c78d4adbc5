// Receipts of payments (decision 048): a photo or screenshot of the transfer, or the bank's PDF.
// Read by their bytes, whatever their name says. Photos are turned upright and stripped of every
// piece of metadata (a PNG stays a lossless PNG, anything else becomes a JPEG); a PDF is kept as
// sent, but only when nothing in it can act (no scripts, launches, attached files, forms that
// send, or encryption that would hide them). Kept in the private store, named by content.
import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import sharp from "sharp";
import {
  tooLargeError,
  UploadRefusedError,
  type UploadedFile,
  type UploadLimits,
} from "~/uploads/upload.server";

const shown = (filename: string) => (filename ? `«${filename.slice(0, 80)}»` : "El archivo");

/** Names in a PDF's dictionaries that make it do something when opened or clicked. */
const ACTIVE_PDF = [
  "/JavaScript",
  "/JS",
  "/Launch",
  "/EmbeddedFile",
  "/RichMedia",
  "/XFA",
  "/AA",
  "/SubmitForm",
  "/ImportData",
  "/Encrypt",
];

/** Whether the text names an active part: the name followed by a delimiter, not a longer name. */
function namesActivePart(text: string): boolean {
  return ACTIVE_PDF.some((name) =>
    new RegExp(`${name.replace("/", "\\/")}(?![A-Za-z0-9])`).test(text),
  );
}

/**
 * The PDF's text and the text of each of its compressed streams (objects may hide inside them),
 * as Latin-1. A stream that does not inflate is left as it is (an image, say).
 */
function pdfTexts(data: Buffer): string[] {
  const raw = data.toString("latin1");
  const texts = [raw];
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    try {
      texts.push(inflateSync(data.subarray(start, end)).toString("latin1"));
    } catch {
      // Not a Flate stream, or not whole: nothing to read in it.
    }
    streams.lastIndex = end;
  }
  return texts;
}

export interface StoredReceipt {
  name: string;
  data: Buffer;
  kind: "png" | "jpg" | "pdf";
}

/**
 * A receipt as it is stored, or a refusal in Spanish: not a photo (JPEG, PNG, WebP) nor a PDF by
 * its bytes; a PDF that could act; too large; too many pixels.
 */
export async function processReceipt(
  file: UploadedFile,
  limits: UploadLimits,
): Promise<StoredReceipt> {
  if (file.data.length > limits.maxBytes) throw tooLargeError(file.filename, limits);
  const name = (data: Buffer, kind: StoredReceipt["kind"]) =>
    `${createHash("sha256").update(data).digest("hex").slice(0, 32)}.${kind}`;
  if (file.data.subarray(0, 5).toString("latin1") === "%PDF-") {
    const tail = file.data.subarray(-1024).toString("latin1");
    if (!tail.includes("%%EOF"))
      throw new UploadRefusedError(`${shown(file.filename)} no es un PDF completo.`, 415);
    if (pdfTexts(file.data).some(namesActivePart))
      throw new UploadRefusedError(
        `${shown(file.filename)} es un PDF con contenido activo (scripts, archivos adjuntos o cifrado). Envía una foto del comprobante o el PDF simple que da el banco.`,
        415,
      );
    return { name: name(file.data, "pdf"), data: file.data, kind: "pdf" };
  }
  const notReceipt = new UploadRefusedError(
    `${shown(file.filename)} no es una foto (JPEG, PNG o WebP) ni un PDF.`,
    415,
  );
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(file.data, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw notReceipt;
  }
  if (!["jpeg", "png", "webp"].includes(meta.format) || !meta.width || !meta.height)
    throw notReceipt;
  if (meta.width * meta.height > limits.maxPixels)
    throw new UploadRefusedError(
      `${shown(file.filename)} tiene demasiados píxeles (${meta.width} × ${meta.height}).`,
      413,
    );
  try {
    const image = sharp(file.data, {
      limitInputPixels: limits.maxPixels,
      failOn: "error",
      animated: false,
    }).rotate();
    // No metadata is carried over: sharp writes none unless asked (no EXIF, GPS, ICC or XMP).
    const kind = meta.format === "png" ? "png" : "jpg";
    const data =
      kind === "png"
        ? await image.png({ compressionLevel: 9 }).toBuffer()
        : await image.jpeg({ quality: 88, mozjpeg: true }).toBuffer();
    return { name: name(data, kind), data, kind };
  } catch {
    throw notReceipt;
  }
}

/** The type a stored receipt is served with. */
export function receiptType(name: string): string {
  if (name.endsWith(".pdf")) return "application/pdf";
  if (name.endsWith(".png")) return "image/png";
  return "image/jpeg";
}
