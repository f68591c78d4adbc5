// The anonymous page cache (docs/decisions/015-page-cache.md): a GET without any of the site's
// cookies renders the same bytes for everyone, so the first such response is kept, compressed
// once, and answered from memory until the content changes (a NOTIFY on PAGES_CHANNEL from any
// process on the database, or a POST through this one) or the minute ends.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Database } from "~/db/client.server";
import { PAGES_CHANNEL } from "~/db/notify.server";
import { encodingFor, windowBitsFor } from "~/kernel/encoding.server";
import { isLightRequest, lightChoice } from "~/site/light-mode";

/** What a proxy or CDN in front may do with a cached page (docs/produccion.md). */
const SHARED_STALE_SECONDS = 30;

const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
const MAX_KEY_LENGTH = 2048;
/** Visitors who may wait for one render of a page; more than that render it themselves. */
const MAX_WAITERS = 1000;
/** How long they wait at most: a render that takes longer (its visitor reads slowly, or not at
 *  all, and the page is not ended before it is sent) does not hold the others up. */
const MAX_WAIT_MS = 1000;
/** Pages answered in a way never kept (a redirect, 404, `Set-Cookie`…) remembered until the
 *  next change, so that their visitors do not wait for each other. */
const MAX_NOT_KEPT = 1000;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Headers a cached entry does not keep: they are per response, or the cache sets its own. */
const DROPPED_HEADERS = new Set([
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "date",
  "etag",
  "keep-alive",
  "set-cookie",
  "transfer-encoding",
  "vary",
]);

interface Entry {
  /** The render's headers but for the per-response ones: name, value, name, value… as
   *  `writeHead` takes them. */
  headers: string[];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  expiresAt: number;
  size: number;
}

/** A visitor waiting for the render of the same page that another visitor's request began. */
interface Waiter {
  req: IncomingMessage;
  res: ServerResponse;
  render: RenderPage;
}

/** The rest of the server, which renders a page the cache does not answer. */
type RenderPage = (req: IncomingMessage, res: ServerResponse) => void;

/** A visitor's render of a page under way, and who waits for it. */
interface Pending {
  waiters: Waiter[];
  deadline: NodeJS.Timeout;
}

interface PageCache {
  /**
   * Answers a cached page (or 304) straight from Node's request handler, before Express, and
   * returns true; returns false when the request is for the rest of the server. A cached entry
   * holds every header its render had (the security headers included). While another visitor's
   * render of the page is under way, the request waits for it and returns true too; if that
   * render is not kept, the request is handed to `render` then.
   */
  serve(req: IncomingMessage, res: ServerResponse, render: RenderPage): boolean;
  /** Mounted just before the router: keeps what it renders for a visitor, when it may be kept. */
  capture(req: Request, res: Response, next: NextFunction): void;
  /** Forgets every page. */
  clear(): void;
  stats(): { entries: number; bytes: number; hits: number; misses: number };
  close(): Promise<void>;
}

/**
 * Marks a response as one person's (its render read a session): never kept, whatever the request
 * looked like (decision 054's guard, beside the cookie check of `cacheable`).
 */
export function markPersonal(res: { locals: Record<string, unknown> }): void {
  res.locals.personal = true;
}

/** True when the request carries one of the site's cookies (session, flash message, sign-in). */
function hasSiteCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return /(?:^|;)\s*(?:__Host-)?ayllu_/.test(cookieHeader);
}

/** The next whole minute: event times have minute precision, so "ended" only flips on one. */
function nextMinute(now: number): number {
  return Math.floor(now / 60_000) * 60_000 + 60_000;
}

function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** The contents of every inline `<script>` and `<style>` element of an HTML page. */
function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\ssrc\s*=/i.test(match[1]!)) scripts.add(sha256Source(match[2]!));
  }
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    styles.add(sha256Source(match[1]!));
  }
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * The policy of a cached page: the nonce of the render that produced it is replaced by the hashes
 * of the page's own inline scripts and styles. 'strict-dynamic' goes with the nonce, so that the
 * page's module preloads (same origin) stay allowed by 'self'.
 */
function hashPolicy(policy: string, nonce: string, html: string): string {
  const { scripts, styles } = inlineHashes(html);
  const nonceSource = `'nonce-${nonce}'`;
  return policy
    .split(";")
    .map((directive) => {
      const parts = directive.trim().split(/\s+/);
      const name = parts[0];
      if (name === "script-src") {
        const rest = parts.slice(1).filter((p) => p !== nonceSource && p !== "'strict-dynamic'");
        return ["script-src", "'self'", ...rest.filter((p) => p !== "'self'"), ...scripts].join(
          " ",
        );
      }
      if (name === "style-src") {
        const rest = parts.slice(1).filter((p) => p !== nonceSource);
        return ["style-src", ...rest, ...styles].join(" ");
      }
      return parts.join(" ");
    })
    .join("; ");
}

/**
 * The cache's key: the address, and which of the two pages it gets — light (decision 049: the
 * person's switch, else `Save-Data: on`) or not.
 */
function pageKey(req: IncomingMessage, url: string): string {
  return isLightRequest(req.headers.cookie, req.headers["save-data"]) ? `${url}\n liviano` : url;
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

function cacheable(req: IncomingMessage, url: string): boolean {
  return (
    (req.method === "GET" || req.method === "HEAD") &&
    url.length <= MAX_KEY_LENGTH &&
    !hasSiteCookie(req.headers.cookie) &&
    !req.headers.authorization
  );
}

export function createPageCache(
  database: Pick<Database, "listen">,
  options: { now?: () => number; onError?: (error: unknown) => void } = {},
): PageCache {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  let hits = 0;
  let misses = 0;
  // Bumped by every change: a render that began before it may have read the old content.
  let generation = 0;
  // Until this process hears the database's notifications, other processes' writes could go
  // unnoticed: nothing is kept.
  let listening = false;
  let closed = false;
  // Pages being compressed: a second render of the same page meanwhile is not compressed again.
  const compressing = new Set<string>();
  // Pages being rendered for a visitor, with the visitors who asked for the same page meanwhile:
  // they get that render's entry once it is kept, so that after each change (which empties the
  // cache) a page is rendered once, not once per visitor arriving before it is ready.
  const waiting = new Map<string, Pending>();
  const notKept = new Set<string>();

  const clear = () => {
    generation++;
    notKept.clear();
    entries.clear();
    totalBytes = 0;
  };

  const unlisten = database
    .listen(PAGES_CHANNEL, () => clear())
    .then(
      (stop) => {
        if (closed) {
          void stop().catch(() => {});
          return null;
        }
        listening = true;
        return stop;
      },
      (error: unknown) => {
        (options.onError ?? console.error)(error);
        return null;
      },
    );

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.size;
  };

  const store = (key: string, entry: Entry) => {
    remove(key);
    entries.set(key, entry);
    totalBytes += entry.size;
    // Oldest first (a Map keeps insertion order) until the whole fits again.
    for (const [oldest] of entries) {
      if (totalBytes <= MAX_TOTAL_BYTES) break;
      remove(oldest);
    }
  };

  const send = (req: IncomingMessage, res: ServerResponse, entry: Entry) => {
    const maxShared = Math.max(1, Math.ceil((entry.expiresAt - now()) / 1000));
    // A page chosen by the light-mode switch's cookie is the person's own choice: shared caches
    // (a proxy, a CDN) do not keep it. One chosen by Save-Data says so in Vary.
    const chosen = lightChoice(req.headers.cookie) !== null;
    const headers = entry.headers.concat(
      "Cache-Control",
      chosen
        ? "private, max-age=0"
        : `public, max-age=0, s-maxage=${maxShared}, stale-while-revalidate=${SHARED_STALE_SECONDS}`,
      "Vary",
      "Accept-Encoding, Cookie, Save-Data",
      "ETag",
      entry.etag,
    );
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const encoding = encodingFor(req.headers["accept-encoding"]);
    const body = encoding === "br" ? entry.br : encoding === "gzip" ? entry.gzip : entry.identity;
    if (encoding !== "identity") headers.push("Content-Encoding", encoding);
    headers.push("Content-Length", String(body.length));
    res.writeHead(200, headers);
    if (req.method === "HEAD") res.end();
    else res.end(body);
  };

  /**
   * Ends a render's wait: its visitors get `entry` if it is kept and still fresh; otherwise they
   * render the page themselves.
   */
  const settle = (key: string, pending: Pending, entry: Entry | undefined) => {
    if (waiting.get(key) !== pending) return;
    waiting.delete(key);
    clearTimeout(pending.deadline);
    const fresh = entry && entry.expiresAt > now() ? entry : undefined;
    for (const { req, res, render } of pending.waiters) {
      if (res.destroyed) continue;
      try {
        if (fresh) {
          hits++;
          send(req, res, fresh);
        } else render(req, res);
      } catch (error) {
        (options.onError ?? console.error)(error);
        res.destroy();
      }
    }
  };

  return {
    serve(req, res, render) {
      const url = req.url ?? "";
      if (!listening || !cacheable(req, url)) return false;
      const key = pageKey(req, url);
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now()) {
        hits++;
        send(req, res, entry);
        return true;
      }
      if (entry) remove(key);
      const pending = waiting.get(key);
      if (!pending || pending.waiters.length >= MAX_WAITERS) return false;
      pending.waiters.push({ req, res, render });
      return true;
    },

    capture(req, res, next) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        // A form post through this process may have changed a page; its own NOTIFY arrives a
        // moment after the answer, so the next request must not wait for it.
        res.once("finish", clear);
        return next();
      }
      if (!listening || req.method !== "GET" || !cacheable(req, req.originalUrl)) return next();
      const key = pageKey(req, req.originalUrl);
      // Another visitor's render of this page is under way (they crossed in Express), or the
      // page is not kept: render it.
      if (waiting.has(key) || notKept.has(key)) return next();
      // The document is kept as rendered; the cache compresses its own copies.
      res.locals.pageCacheKeeps = true;
      const pending: Pending = {
        waiters: [],
        deadline: setTimeout(() => settle(key, pending, undefined), MAX_WAIT_MS),
      };
      pending.deadline.unref();
      waiting.set(key, pending);
      let ended = false;
      // A render that never ends (its visitor went away) lets the others render the page.
      res.once("close", () => {
        if (!ended) settle(key, pending, undefined);
      });
      const startedAt = generation;
      const renderedAt = now();
      misses++;
      const nonce = String(res.locals.cspNonce ?? "");
      const chunks: Buffer[] = [];
      let size = 0;
      let tooBig = false;
      const keep = (chunk: unknown, encoding?: unknown) => {
        if (tooBig || chunk === undefined || chunk === null || typeof chunk === "function") return;
        const buffer = Buffer.isBuffer(chunk)
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : Buffer.from(
                String(chunk),
                typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8",
              );
        size += buffer.length;
        if (size > MAX_ENTRY_BYTES) {
          tooBig = true;
          chunks.length = 0;
        } else chunks.push(Buffer.from(buffer));
      };
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      res.write = ((...args: unknown[]) => {
        keep(args[0], args[1]);
        return write(...args);
      }) as Response["write"];
      res.end = ((...args: unknown[]) => {
        ended = true;
        // Whoever waits is answered here unless the page goes on to be compressed and kept.
        let compressingIt = false;
        try {
          keep(args[0], args[1]);
          const result = end(...args);
          const keepable =
            !tooBig &&
            res.locals.personal !== true &&
            res.statusCode === 200 &&
            res.getHeader("set-cookie") === undefined &&
            // A personal answer reached without cookies (a private calendar link) says `private`.
            !/\bprivate\b/.test(String(res.getHeader("cache-control") ?? "")) &&
            // A picture (a link preview's card) is compressed already and keeps its own caching.
            !String(res.getHeader("content-type") ?? "").startsWith("image/");
          // Not for a server error: the next render may well succeed.
          if (!keepable && res.statusCode < 500 && notKept.size < MAX_NOT_KEPT) notKept.add(key);
          const kept = entries.get(key);
          if (
            keepable &&
            !closed &&
            listening &&
            generation === startedAt &&
            // Two visitors' renders of one page: the first one kept stays (and so does its
            // ETag), and brotli at quality 11 runs once for it, not once per render.
            !(kept && kept.expiresAt > now()) &&
            !compressing.has(key)
          ) {
            compressIt();
            compressingIt = true;
          }
          return result;
        } finally {
          if (!compressingIt) settle(key, pending, entries.get(key));
        }
      }) as Response["end"];
      const compressIt = () => {
        const keepFor = (entry: Entry | undefined) => settle(key, pending, entry);
        const headers: Array<[string, string]> = [];
        for (const [name, value] of Object.entries(res.getHeaders())) {
          if (DROPPED_HEADERS.has(name) || value === undefined) continue;
          headers.push([name, Array.isArray(value) ? value.join(", ") : String(value)]);
        }
        let identity = Buffer.concat(chunks);
        chunks.length = 0;
        const type = String(res.getHeader("content-type") ?? "");
        const policyAt = headers.findIndex(([name]) => name === "content-security-policy");
        if (policyAt >= 0 && nonce) {
          const html = type.startsWith("text/html") ? identity.toString("utf8") : "";
          headers[policyAt] = [
            "content-security-policy",
            hashPolicy(headers[policyAt]![1], nonce, html),
          ];
          // The render's nonce matches nothing any more; without it, the same content gives
          // the same bytes (and ETag) on every render.
          if (html) identity = Buffer.from(html.replaceAll(` nonce="${nonce}"`, ""), "utf8");
        }
        // Compressed once, off the main thread; kept only if nothing changed meanwhile.
        compressing.add(key);
        void Promise.all([
          gzipAsync(identity, { level: 9 }),
          brotliAsync(identity, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 11,
              [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
              // A window no larger than the page: the same bytes out, and quality 11's
              // working memory (which grows with the window) is a few MB, not tens.
              [zlib.BROTLI_PARAM_LGWIN]: windowBitsFor(identity.length),
            },
          }),
        ])
          .then(
            ([gzipped, brotli]) => {
              if (closed || generation !== startedAt) return keepFor(undefined);
              const entry: Entry = {
                headers: headers.flat(),
                identity,
                gzip: gzipped,
                br: brotli,
                etag: `W/"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
                expiresAt: nextMinute(renderedAt),
                size: identity.length + gzipped.length + brotli.length + key.length,
              };
              store(key, entry);
              keepFor(entry);
            },
            (error: unknown) => {
              keepFor(undefined);
              (options.onError ?? console.error)(error);
            },
          )
          .finally(() => compressing.delete(key));
      };
      next();
    },

    clear,
    stats: () => ({ entries: entries.size, bytes: totalBytes, hits, misses }),
    async close() {
      closed = true;
      listening = false;
      clear();
      for (const [key, pending] of waiting) settle(key, pending, undefined);
      const stop = await unlisten;
      await stop?.().catch(() => {});
    },
  };
}
