// A PDF receipt turned into pictures of its pages (decision 061). PDFium, compiled to
// WebAssembly, draws each page in a worker thread of its own that is ended after the one
// document: what a hostile file could do stays inside the wasm sandbox, a file that takes too long
// or asks for too much memory is stopped, and PDFium's memory goes back with the worker. A child
// process per PDF isolates as well but cost twice the peak memory for the same time
// (npm run bench:receipts); it is kept beside the worker so that the bench can compare them.
// Nothing of the PDF is kept: only the pictures are.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** At most this many pages: a transfer receipt is one or two; a longer file is refused. */
export const MAX_PDF_PAGES = 4;
/** Each page is drawn at this resolution, unless that would pass the sizes below. */
const DPI = 150;
/** A narrow page (a phone app's receipt, a till roll) is drawn at least this wide, to be read. */
const MIN_PAGE_WIDTH = 900;
/** A page's picture is at most this wide and tall, whatever size the page says it has. */
export const MAX_PAGE_WIDTH = 1240;
export const MAX_PAGE_HEIGHT = 2000;
/** How long one PDF may take to draw before it is refused. */
export const RENDER_TIME_LIMIT_MS = 8000;
/** How much memory PDFium may grow to (the file, its objects and one page's bitmap). */
export const RENDER_MEMORY_LIMIT = 128 * 1024 * 1024;

export interface PdfPage {
  width: number;
  height: number;
  /** RGBA, width × height × 4 bytes. */
  rgba: Uint8Array;
}

/** Why a PDF could not be drawn, each told to the member in Spanish by the caller. */
export type PdfFailure = "password" | "unreadable" | "pages" | "time" | "memory";

export class PdfRenderError extends Error {
  constructor(
    readonly reason: PdfFailure,
    readonly pageCount = 0,
  ) {
    super(`PDF not rendered: ${reason}`);
    this.name = "PdfRenderError";
  }
}

type Answer =
  | { ok: true; pages: PdfPage[] }
  | { ok: false; reason: PdfFailure | "other"; pageCount?: number; detail?: string };

interface Job {
  pdf: Uint8Array;
  library: string;
  wasm: string;
  maxPages: number;
  memoryLimit: number;
  dpi: number;
  minWidth: number;
  maxWidth: number;
  maxHeight: number;
}

/**
 * What runs beside the server, in CommonJS (a worker's or `node -e`'s code): it loads PDFium with
 * its heap growth capped, reads the document, refuses too many pages, and draws each page on white
 * with no forms, no JavaScript (this PDFium has no V8) and no links — pixels only. Written as
 * source text because a build bundles the server into one file, where no separate script exists.
 */
const RENDER_PROGRAM = String.raw`
const fs = require("node:fs");
async function render(job) {
  const { PDFiumLibrary } = require(job.library);
  const binary = fs.readFileSync(job.wasm);
  let overLimit = false;
  const library = await PDFiumLibrary.init({
    instantiateWasm(imports, done) {
      const grow = imports.env.emscripten_resize_heap;
      imports.env.emscripten_resize_heap = (size) => {
        if (size >>> 0 > job.memoryLimit) { overLimit = true; return false; }
        return grow(size);
      };
      WebAssembly.instantiate(binary, imports).then((r) => done(r.instance, r.module));
      return {};
    },
  });
  let document;
  try {
    document = await library.loadDocument(job.pdf);
  } catch (error) {
    const text = String(error && error.message);
    if (overLimit) return { ok: false, reason: "memory" };
    return { ok: false, reason: /password/i.test(text) ? "password" : "unreadable", detail: text };
  }
  const pageCount = document.getPageCount();
  if (pageCount < 1) return { ok: false, reason: "unreadable", detail: "no pages" };
  if (pageCount > job.maxPages) return { ok: false, reason: "pages", pageCount };
  const pages = [];
  try {
    for (let i = 0; i < pageCount; i++) {
      const page = document.getPage(i);
      const { originalWidth: w, originalHeight: h } = page.getOriginalSize();
      if (!(w > 0 && h > 0)) return { ok: false, reason: "unreadable", detail: "page size" };
      const wanted = Math.max(job.dpi / 72, job.minWidth / w);
      const scale = Math.min(wanted, job.maxWidth / w, job.maxHeight / h);
      const width = Math.max(1, Math.min(job.maxWidth, Math.floor(w * scale)));
      const height = Math.max(1, Math.min(job.maxHeight, Math.floor(h * scale)));
      // width and height are given in points and multiplied by scale 1: exactly the sizes above.
      const drawn = await page.render({ render: "bitmap", scale: 1, width, height });
      pages.push({ width: drawn.width, height: drawn.height, rgba: drawn.data });
    }
  } catch (error) {
    return { ok: false, reason: overLimit ? "memory" : "unreadable", detail: String(error && error.message) };
  }
  // PDFium leaves out what it had no memory for (an image, say): such a picture is not the receipt.
  if (overLimit) return { ok: false, reason: "memory" };
  return { ok: true, pages };
}
`;

const CHILD_MAIN = `${RENDER_PROGRAM}
process.once("message", (job) => {
  render(job).then(
    (answer) => process.send(answer, () => process.exit(0)),
    (error) => process.send({ ok: false, reason: "other", detail: String(error && error.stack) }, () => process.exit(0)),
  );
});`;

const WORKER_MAIN = `${RENDER_PROGRAM}
const { parentPort, workerData } = require("node:worker_threads");
render(workerData).then(
  (answer) => parentPort.postMessage(answer, answer.ok ? answer.pages.map((p) => p.rgba.buffer) : []),
  (error) => parentPort.postMessage({ ok: false, reason: "other", detail: String(error && error.stack) }),
);`;

/** The time and memory one PDF may take; the tests make them small to see each refusal. */
export interface RenderLimits {
  timeMs: number;
  memoryBytes: number;
}

const LIMITS: RenderLimits = { timeMs: RENDER_TIME_LIMIT_MS, memoryBytes: RENDER_MEMORY_LIMIT };

function job(pdf: Uint8Array, limits: RenderLimits): Job {
  const require = createRequire(import.meta.url);
  return {
    pdf,
    library: require.resolve("@hyzyla/pdfium"),
    wasm: require.resolve("@hyzyla/pdfium/pdfium.wasm"),
    maxPages: MAX_PDF_PAGES,
    memoryLimit: limits.memoryBytes,
    dpi: DPI,
    minWidth: MIN_PAGE_WIDTH,
    maxWidth: MAX_PAGE_WIDTH,
    maxHeight: MAX_PAGE_HEIGHT,
  };
}

function inChildProcess(work: Job, timeMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ["--max-old-space-size=64", "-e", CHILD_MAIN],
      {
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        env: {},
      },
    );
    let settled = false;
    let stderr = "";
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() => resolve({ ok: false, reason: "time" }));
    }, timeMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.once("message", (answer) => finish(() => resolve(answer as Answer)));
    child.once("error", (error) => finish(() => reject(error)));
    child.once("exit", (code, signal) =>
      finish(() =>
        resolve({ ok: false, reason: "other", detail: `exit ${code ?? signal}: ${stderr}` }),
      ),
    );
    child.send(work);
  });
}

function inWorker(work: Job, timeMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_MAIN, {
      eval: true,
      workerData: work,
      resourceLimits: { maxOldGenerationSizeMb: 64 },
      // PDFium's complaints (a heap it may not grow, say) are kept for the log, not printed.
      stdout: true,
      stderr: true,
    });
    let stderr = "";
    worker.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => finish(() => resolve({ ok: false, reason: "time" })), timeMs);
    worker.once("message", (answer) => finish(() => resolve(answer as Answer)));
    worker.once("error", (error) => finish(() => reject(error)));
    worker.once("exit", (code) =>
      finish(() => resolve({ ok: false, reason: "other", detail: `exit ${code}: ${stderr}` })),
    );
  });
}

/**
 * The pages of a PDF as RGBA pictures, each at most MAX_PAGE_WIDTH × MAX_PAGE_HEIGHT, or a
 * PdfRenderError saying why not. `isolation` is for the bench, which compares the two; the server
 * uses a worker (decision 061 gives the figures).
 */
export async function renderPdfPages(
  pdf: Uint8Array,
  isolation: "process" | "worker" = "worker",
  limits: RenderLimits = LIMITS,
): Promise<PdfPage[]> {
  const work = job(pdf, limits);
  const answer = await (isolation === "process"
    ? inChildProcess(work, limits.timeMs)
    : inWorker(work, limits.timeMs));
  if (answer.ok) return answer.pages;
  if (answer.reason === "other") {
    // Not the file's fault as far as anyone can tell: logged for the admins, refused as unreadable.
    console.error("No se pudo dibujar un PDF:", answer.detail ?? "sin detalle");
    throw new PdfRenderError("unreadable");
  }
  throw new PdfRenderError(answer.reason, answer.pageCount);
}
