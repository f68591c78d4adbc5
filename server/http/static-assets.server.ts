// The client build's hashed files (/assets): what a first visit downloads most of (decision 049).
// Scripts and stylesheets are compressed once with brotli at its best quality, off the main
// thread, and kept in memory: a fifth less than the `compression` middleware's on-the-fly quality,
// at no cost per request. The first request of a file is answered by express.static and
// `compression` while its copy is made. A script or stylesheet does not take the page headers
// (a Content-Security-Policy and the framing rules apply to documents and workers, not to a
// module a page imports): about 700 bytes less on each of a page's requests.
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { encodingFor, windowBitsFor } from "~/kernel/encoding.server";

const brotliAsync = promisify(brotliCompress);

/** A hashed script or stylesheet of the build, by its name alone. */
const COMPRESSIBLE = /^[\w.-]{1,200}\.(js|css)$/;
/** Workers run under their own script's headers: theirs stay (server/http/security.server.ts). */
const WORKER = /\.worker-[\w-]+\.js$/;
const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
const YEAR_SECONDS = 31_536_000;

/** Headers that only mean something on a document or a worker. */
const PAGE_ONLY_HEADERS = [
  "Content-Security-Policy",
  "Cross-Origin-Opener-Policy",
  "Permissions-Policy",
  "Referrer-Policy",
  "X-Frame-Options",
];

/** True for a build file that a page loads as a subresource (not a worker, not a document). */
export function isSubresource(name: string): boolean {
  return /\.(js|css|woff2)$/.test(name) && !WORKER.test(name);
}

/** Takes the page headers off a subresource's response (express.static's `setHeaders`). */
export function dropPageHeaders(res: Response, filePath: string): void {
  if (!isSubresource(path.basename(filePath))) return;
  for (const name of PAGE_ONLY_HEADERS) res.removeHeader(name);
}

export function brotliAssets(dir: string) {
  const copies = new Map<string, Buffer>();
  const making = new Set<string>();
  let total = 0;

  const make = (name: string) => {
    making.add(name);
    void fs
      .readFile(path.join(dir, name))
      .then(async (file) => {
        if (file.length > MAX_FILE_BYTES) return;
        const copy = await brotliAsync(file, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 11,
            [zlib.BROTLI_PARAM_SIZE_HINT]: file.length,
            [zlib.BROTLI_PARAM_LGWIN]: windowBitsFor(file.length),
          },
        });
        if (total + copy.length > MAX_TOTAL_BYTES) return;
        copies.set(name, copy);
        total += copy.length;
      })
      // A file that is not there is answered 404 by express.static; nothing to keep.
      .catch(() => {})
      .finally(() => making.delete(name));
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const match = COMPRESSIBLE.exec(name);
    if (!match || WORKER.test(name) || encodingFor(req.headers["accept-encoding"]) !== "br") {
      return next();
    }
    const copy = copies.get(name);
    if (!copy) {
      if (!making.has(name)) make(name);
      return next();
    }
    dropPageHeaders(res, name);
    res.setHeader("Content-Type", TYPES[match[1]!]!);
    res.setHeader("Content-Encoding", "br");
    res.setHeader("Content-Length", String(copy.length));
    res.setHeader("Cache-Control", `public, max-age=${YEAR_SECONDS}, immutable`);
    res.setHeader("Vary", "Accept-Encoding");
    res.status(200);
    if (req.method === "HEAD") res.end();
    else res.end(copy);
  };
}
