// Receipts of payments (decision 048): a photo or screenshot of the transfer, or the bank's PDF.
// Read by their bytes, whatever their name says. Photos are turned upright and stripped of every
// piece of metadata (a PNG stays a lossless PNG, anything else becomes a JPEG). A PDF is never
// kept: its pages are drawn (pdf-pages.server.ts) and only that picture is stored, so whatever a
// PDF may carry — scripts, launches, attached files, forms, however encoded — is not there to act
// (decision 061). Kept in the private store, named by content.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { MAX_PDF_PAGES, type PdfPage, PdfRenderError, renderPdfPages } from "./pdf-pages.server";
import {
  tooLargeError,
  UploadRefusedError,
  type UploadedFile,
  type UploadLimits,
} from "~/uploads/upload.server";

const shown = (filename: string) => (filename ? `«${filename.slice(0, 80)}»` : "El archivo");

export interface StoredReceipt {
  name: string;
  data: Buffer;
  kind: "png" | "jpg";
}

/** The grey band between two pages of a drawn PDF, and beside a page narrower than the widest. */
const PAGE_GAP = 24;
const BETWEEN_PAGES = { r: 200, g: 200, b: 200 };

/** The pages, one under the other, as one JPEG: a receipt is read top to bottom on a phone. */
async function stackPages(pages: PdfPage[]): Promise<Buffer> {
  const width = Math.max(...pages.map((p) => p.width));
  const height = pages.reduce((sum, p) => sum + p.height, 0) + PAGE_GAP * (pages.length - 1);
  let top = 0;
  const layers = pages.map((page) => {
    const layer = {
      input: Buffer.from(page.rgba.buffer, page.rgba.byteOffset, page.rgba.byteLength),
      raw: { width: page.width, height: page.height, channels: 4 as const },
      top,
      left: Math.floor((width - page.width) / 2),
    };
    top += page.height + PAGE_GAP;
    return layer;
  });
  return (
    sharp({ create: { width, height, channels: 3, background: BETWEEN_PAGES } })
      .composite(layers)
      // Plain libjpeg: mozjpeg made pages of text a third smaller but took six times as long.
      .jpeg({ quality: 85 })
      .toBuffer()
  );
}

function pdfRefusal(filename: string, error: PdfRenderError): UploadRefusedError {
  const what = shown(filename);
  switch (error.reason) {
    case "password":
      return new UploadRefusedError(
        `${what} es un PDF protegido con contraseña. Envía el PDF sin contraseña o una captura del comprobante.`,
        400,
      );
    case "pages":
      return new UploadRefusedError(
        `${what} tiene ${error.pageCount} páginas; un comprobante puede tener hasta ${MAX_PDF_PAGES}. Envía solo la página de la transferencia o una captura.`,
        400,
      );
    case "time":
    case "memory":
      return new UploadRefusedError(
        `${what} es un PDF demasiado pesado para mostrarlo. Envía una captura o una foto del comprobante.`,
        400,
      );
    case "unreadable":
      return new UploadRefusedError(
        `${what} es un PDF dañado o que no se puede leer. Envía una captura o una foto del comprobante.`,
        400,
      );
  }
}

/**
 * A receipt as it is stored, or a refusal in Spanish: not a photo (JPEG, PNG, WebP) nor a PDF by
 * its bytes; a PDF that cannot be drawn (password, damaged, too many pages, too heavy); too large;
 * too many pixels.
 */
export async function processReceipt(
  file: UploadedFile,
  limits: UploadLimits,
): Promise<StoredReceipt> {
  if (file.data.length > limits.maxBytes) throw tooLargeError(file.filename, limits);
  const name = (data: Buffer, kind: StoredReceipt["kind"]) =>
    `${createHash("sha256").update(data).digest("hex").slice(0, 32)}.${kind}`;
  if (file.data.subarray(0, 5).toString("latin1") === "%PDF-") {
    let pages: PdfPage[];
    try {
      pages = await renderPdfPages(file.data);
    } catch (error) {
      if (error instanceof PdfRenderError) throw pdfRefusal(file.filename, error);
      throw error;
    }
    const data = await stackPages(pages);
    return { name: name(data, "jpg"), data, kind: "jpg" };
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

/** The type a stored receipt is served with (PDFs stored before decision 061 are still .pdf). */
export function receiptType(name: string): string {
  if (name.endsWith(".pdf")) return "application/pdf";
  if (name.endsWith(".png")) return "image/png";
  return "image/jpeg";
}
