// The upload endpoint's body: multipart files, read with busboy as they stream in. The limits
// (bytes per file, files per request, no other fields) are enforced while reading: a file past
// the size limit is not kept beyond it, and the request is refused.
import { Readable } from "node:stream";
import busboy from "busboy";
import { CONTROL_CHARACTERS } from "~/kernel/checks";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { UPLOAD_MAX_FILES } from "~/kernel/images";
import {
  tooLargeError,
  UploadRefusedError,
  type UploadedFile,
  type UploadLimits,
} from "./upload.server";

/** The multipart field every file comes in. */
export const UPLOAD_FIELD = "imagen";

const MULTIPART = /^multipart\/form-data\s*;/i;

/**
 * The files of a multipart body. `field` is the one field files may come in (the image field's,
 * or a receipt's); `missing` is said when none came.
 */
export async function readUploads(
  request: Request,
  limits: UploadLimits,
  options: { field?: string; missing?: string } = {},
): Promise<UploadedFile[]> {
  return (await readUploadForm(request, limits, options)).files;
}

/** How much of one text field a multipart form is read; a longer one is cut here. */
const TEXT_FIELD_MAX_BYTES = 1024;

/**
 * A multipart form of files and a few named text fields (`texts`): the files in `field`, the
 * texts by name. Any other field is refused. With `optional`, a form without a file is fine
 * (its texts may be all it says); otherwise `missing` is said. A text longer than a kilobyte is
 * cut there, so the form's own rules refuse it as too long.
 */
export async function readUploadForm(
  request: Request,
  limits: UploadLimits,
  options: { field?: string; missing?: string; texts?: readonly string[]; optional?: boolean } = {},
): Promise<{ files: UploadedFile[]; texts: Map<string, string> }> {
  const field = options.field ?? UPLOAD_FIELD;
  const allowed = options.texts ?? [];
  const type = request.headers.get("Content-Type") ?? "";
  if (!MULTIPART.test(type) || !request.body) {
    throw new UploadRefusedError(KERNEL_MESSAGES.badFormBody);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      limits: {
        fileSize: limits.maxBytes,
        files: UPLOAD_MAX_FILES,
        fields: allowed.length,
        // busboy counts the body's closing boundary as a part: one more than the files.
        parts: UPLOAD_MAX_FILES + allowed.length + 1,
        fieldSize: allowed.length > 0 ? TEXT_FIELD_MAX_BYTES : 0,
      },
    });
  } catch {
    throw new UploadRefusedError(KERNEL_MESSAGES.badFormBody);
  }
  const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  return new Promise((resolve, reject) => {
    const files: UploadedFile[] = [];
    const texts = new Map<string, string>();
    let refused: UploadRefusedError | null = null;
    const refuse = (error: UploadRefusedError) => {
      refused ??= error;
    };
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      // Names are text, refused as every form's text is (decision 063); the bytes are the file's.
      if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(info.filename ?? "")) {
        refuse(new UploadRefusedError(KERNEL_MESSAGES.controlCharacter));
      } else if (name !== field) {
        refuse(new UploadRefusedError(`Campo no esperado: ${name.slice(0, 40)}.`));
      }
      stream.on("data", (chunk: Buffer) => {
        if (!refused) chunks.push(chunk);
      });
      // A body cut short ends the file's stream with an error too; the parser's error answers it.
      stream.on("error", () => {});
      stream.on("limit", () => refuse(tooLargeError(info.filename ?? "", limits)));
      stream.on("end", () => {
        const data = Buffer.concat(chunks);
        // A form's file input with nothing chosen sends an empty part without a name.
        if (!info.filename && data.length === 0) return;
        if (!refused) files.push({ filename: info.filename ?? "", data });
      });
    });
    parser.on("field", (name, value) => {
      if (CONTROL_CHARACTERS.test(name))
        refuse(new UploadRefusedError(KERNEL_MESSAGES.controlCharacter));
      else if (!allowed.includes(name) || texts.has(name))
        refuse(new UploadRefusedError(`Campo no esperado: ${name.slice(0, 40)}.`));
      else if (CONTROL_CHARACTERS.test(value))
        refuse(new UploadRefusedError(KERNEL_MESSAGES.controlCharacter));
      else texts.set(name, value);
    });
    parser.on("filesLimit", () =>
      refuse(new UploadRefusedError(`Como máximo ${UPLOAD_MAX_FILES} imágenes a la vez.`, 413)),
    );
    parser.on("partsLimit", () =>
      refuse(new UploadRefusedError(`Como máximo ${UPLOAD_MAX_FILES} imágenes a la vez.`, 413)),
    );
    parser.on("fieldsLimit", () => refuse(new UploadRefusedError("Solo se envían imágenes.")));
    parser.on("error", (error: Error) => {
      body.unpipe(parser);
      body.resume();
      // A part's header a browser built is malformed only when a name in it carries a control
      // character (decision 063): say that, rather than that the form is broken.
      reject(
        new UploadRefusedError(
          error.message === "Malformed part header"
            ? KERNEL_MESSAGES.controlCharacter
            : KERNEL_MESSAGES.badFormBody,
        ),
      );
    });
    parser.on("close", () => {
      if (refused) reject(refused);
      else if (files.length === 0 && !options.optional)
        reject(new UploadRefusedError(options.missing ?? "Elige una imagen."));
      else resolve({ files, texts });
    });
    body.on("error", () => reject(new UploadRefusedError(KERNEL_MESSAGES.badFormBody)));
    body.pipe(parser);
  });
}
