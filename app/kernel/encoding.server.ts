// Content encodings of the pages the server renders: which one a client takes, and brotli's
// window for a body of a given size. Used by the page cache (server/http/page-cache.server.ts) and
// by the document renderer (app/entry.server.tsx).
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip" | "identity";

function preferredEncoding(acceptEncoding: string): Encoding {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name!.trim(), q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return "identity";
}

/** Browsers send a handful of different Accept-Encoding headers: each is read once. */
const encodingMemo = new Map<string, Encoding>();
const MAX_ENCODING_MEMO = 64;

/** The encoding a client with this Accept-Encoding header gets: brotli, else gzip, else none. */
export function encodingFor(acceptEncoding: string | null | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = encodingMemo.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = preferredEncoding(acceptEncoding);
    if (encodingMemo.size >= MAX_ENCODING_MEMO) encodingMemo.clear();
    if (acceptEncoding.length <= 256) encodingMemo.set(acceptEncoding, encoding);
  }
  return encoding;
}

/** Brotli's window for a body of `length` bytes: the smallest that holds it (16–22 bits). */
export function windowBitsFor(length: number): number {
  return Math.min(zlib.BROTLI_DEFAULT_WINDOW, Math.max(16, Math.ceil(Math.log2(length + 1))));
}

/** Below this, compressing saves less than it costs (the compression middleware's threshold). */
const MIN_COMPRESSED_BYTES = 1024;
/**
 * Above this (an admin list of hundreds of events), compressing in one call would hold the
 * process for milliseconds: the compression middleware streams it through the thread pool.
 */
const MAX_COMPRESSED_IN_ONE_CALL = 256 * 1024;

/**
 * A rendered document compressed in one call, without the compression middleware's stream
 * (docs/decisions/026-documents-compressed-in-one-call.md): brotli at quality 2, or gzip at
 * level 6. Quality 4 made 7 % fewer bytes for twice the CPU on a busy server (0.32–0.52 ms for a
 * 13 KB page, against 0.15–0.19). Null when the document is left to the middleware: too small to
 * be worth it, or too large for one call.
 */
export function compressDocument(body: Buffer, encoding: Encoding): Buffer | null {
  if (encoding === "identity") return null;
  if (body.length < MIN_COMPRESSED_BYTES || body.length > MAX_COMPRESSED_IN_ONE_CALL) return null;
  if (encoding === "gzip") return gzipSync(body, { level: 6 });
  return brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 2,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_LGWIN]: windowBitsFor(body.length),
    },
  });
}
