// Headers every response carries, the POST origin check and the sign-in rate limit.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { rateLimit as expressRateLimit, type Store } from "express-rate-limit";

interface SecurityOptions {
  production: boolean;
  /** Vite's development server needs inline scripts and a websocket. */
  viteDev: boolean;
  publicUrl: URL;
  formActionOrigins: () => string[];
}

/** Sites the pages embed: YouTube (privacy mode) and the venue map. */
const FRAME_SOURCES = [
  "https://www.youtube-nocookie.com",
  "https://www.google.com",
  "https://maps.google.com",
];

/**
 * Pages that check people in at the door. They may use the camera, and they read QR codes with a
 * WebAssembly decoder in a worker where the browser has no BarcodeDetector
 * (docs/decisions/040-qr-decoder.md): compiling WebAssembly needs 'wasm-unsafe-eval', the worker
 * needs worker-src. Every other page gets neither. A new check-in page is one more pattern here.
 */
export const CHECK_IN_PAGES: readonly RegExp[] = [/^\/admin\/eventos\/[^/]+\/registro$/];

/**
 * The decoder's worker script (built by Vite from app/attendance/qr-decoder.worker.ts). A worker
 * runs under the policy its own script is served with, not its page's, so it is the worker that
 * compiles the WebAssembly and needs 'wasm-unsafe-eval'.
 */
const DECODER_WORKER = /^\/assets\/qr-decoder\.worker-[\w-]+\.js$/;

export function isCheckInPage(path: string): boolean {
  return CHECK_IN_PAGES.some((pattern) => pattern.test(path));
}

/**
 * Pages kept on the phone by a service worker of their own: a member's passes
 * (docs/decisions/050-mis-entradas-offline.md) and a judge's screen (decision 059). They may register it (worker-src 'self'), and
 * nothing more than any page.
 */
export const OFFLINE_PAGES: readonly RegExp[] = [
  /^\/mis-entradas$/,
  // A judge's screen (decision 059).
  /^\/admin\/eventos\/[^/]+\/jurado\/[^/]+$/,
];

/**
 * A payment's receipt (decision 061): a picture shown by itself in a tab, or a PDF stored before
 * PDFs were drawn, which is only ever a download. Either way nothing in it may run, load or be
 * framed: the tab is a sandbox with no sources at all.
 */
const RECEIPT_PATH = /^\/pagos\/[^/]+\/comprobante$/;
export const RECEIPT_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

/**
 * What a response may do beyond every page: nothing, run WebAssembly, check people in, or start
 * its offline service worker.
 */
type Allowance = "none" | "wasm" | "checkIn" | "offline";

function contentSecurityPolicy(nonce: string, options: SecurityOptions, allows: Allowance): string {
  const checkIn = allows === "checkIn";
  const scriptSrc = options.viteDev
    ? `'self' 'unsafe-inline' 'unsafe-eval'`
    : `'nonce-${nonce}' 'strict-dynamic'${allows === "wasm" || checkIn ? " 'wasm-unsafe-eval'" : ""}`;
  const directives = [
    `default-src 'none'`,
    `script-src ${scriptSrc}`,
    `style-src 'self' ${options.viteDev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // Style attributes cannot run code; React sets a few (progress bars, image positions).
    `style-src-attr 'unsafe-inline'`,
    `img-src 'self' https: data: blob:`,
    `font-src 'self'`,
    `connect-src 'self'${options.viteDev ? " ws: wss:" : ""}`,
    `manifest-src 'self'`,
    `frame-src ${FRAME_SOURCES.join(" ")}`,
    // The check-in page's decoder and its offline service worker (/registro-sw.js), the passes'
    // and the judge's screen's service workers are files of this site; no other page starts one.
    `worker-src ${checkIn || allows === "offline" ? "'self'" : "'none'"}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `frame-ancestors 'none'`,
    `form-action 'self' ${options.formActionOrigins().join(" ")}`.trim(),
  ];
  if (options.production) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=()";
/** For the check-in pages, which scan QR codes with the camera. */
const CAMERA_ALLOWED = "camera=(self), microphone=(), geolocation=(), payment=()";

const NONCE_BYTES = 16;
let nonceBytes = Buffer.alloc(0);
let nonceAt = 0;

/**
 * A fresh nonce for each response: 16 bytes from the system's CSPRNG, drawn a few thousand at a
 * time (one call instead of one per request). No byte is ever handed out twice.
 */
export function freshNonce(): string {
  if (nonceAt + NONCE_BYTES > nonceBytes.length) {
    nonceBytes = randomBytes(NONCE_BYTES * 256);
    nonceAt = 0;
  }
  const nonce = nonceBytes.toString("base64", nonceAt, nonceAt + NONCE_BYTES);
  nonceAt += NONCE_BYTES;
  return nonce;
}

export function securityHeaders(options: SecurityOptions) {
  // The policy is the same for every response but for its nonce: it is written once (again only
  // when the sign-in provider's origins change) and the nonce put into its two places.
  const MARK = "\u0000";
  let origins: string | null = null;
  let pieces: Record<Allowance, string[]> = { none: [], wasm: [], checkIn: [], offline: [] };
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    const current = options.formActionOrigins().join(" ");
    if (current !== origins) {
      origins = current;
      pieces = {
        none: contentSecurityPolicy(MARK, options, "none").split(MARK),
        wasm: contentSecurityPolicy(MARK, options, "wasm").split(MARK),
        checkIn: contentSecurityPolicy(MARK, options, "checkIn").split(MARK),
        offline: contentSecurityPolicy(MARK, options, "offline").split(MARK),
      };
    }
    const checkIn = isCheckInPage(req.path);
    const allows: Allowance = checkIn
      ? "checkIn"
      : DECODER_WORKER.test(req.path)
        ? "wasm"
        : OFFLINE_PAGES.some((pattern) => pattern.test(req.path))
          ? "offline"
          : "none";
    res.setHeader(
      "Content-Security-Policy",
      RECEIPT_PATH.test(req.path) ? RECEIPT_POLICY : pieces[allows].join(nonce),
    );
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", checkIn ? CAMERA_ALLOWED : PERMISSIONS_POLICY);
    if (options.production)
      res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The methods any handler sees: GET, HEAD and POST. OPTIONS is answered here for every path with
 * the methods served (the site takes no cross-origin requests, so there is no preflight to answer:
 * React Router's 405 page, a sign-in callback's redirect and its log line were all it got).
 * Anything else (TRACE, PUT, DELETE, PATCH, WebDAV's…) is refused before them, so that no handler
 * meets a method it was not written for (TRACE made React Router throw, and each request logged a
 * stack trace).
 */
const HANDLED_METHODS = new Set(["GET", "HEAD", "POST"]);
const ALLOW = "GET, HEAD, POST";
const METHOD_REFUSED = "Método no permitido: este sitio solo responde a GET, HEAD y POST.";
const METHOD_REFUSED_HEADERS = {
  Allow: ALLOW,
  "Content-Type": "text/plain; charset=utf-8",
  "Content-Length": String(Buffer.byteLength(METHOD_REFUSED)),
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/**
 * Answers OPTIONS (204) and a method the site does not serve (405), and returns true; false for
 * the methods the handlers serve.
 */
export function answerMethodOutsideHandlers(req: IncomingMessage, res: ServerResponse): boolean {
  if (HANDLED_METHODS.has(req.method ?? "")) return false;
  if (req.method === "OPTIONS") {
    res.writeHead(204, { Allow: ALLOW, "Cache-Control": "no-store" });
  } else {
    res.writeHead(405, METHOD_REFUSED_HEADERS);
    res.write(METHOD_REFUSED);
  }
  res.end();
  return true;
}

/** What Node answers by itself to a request it cannot parse (its defaults, kept as they are). */
const PARSE_ERROR_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

/**
 * The same 405 for the methods that never reach a request handler: CONNECT (Node hands its
 * socket to a "connect" listener, and without one drops it) and a method Node's parser does not
 * know (answered 400 otherwise). Listening for "clientError" replaces Node's own answers to the
 * other unparseable requests, so they are written here as Node writes them.
 */
export function refuseMethodsBeforeParsing(server: Server): void {
  const answer = (socket: Duplex, status: string, headers: Record<string, string>, body = "") => {
    if (!socket.writable) return;
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status}\r\n${lines.join("")}Connection: close\r\n\r\n${body}`);
  };
  const refuse = (socket: Duplex) =>
    answer(socket, "405 Method Not Allowed", METHOD_REFUSED_HEADERS, METHOD_REFUSED);
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    refuse(socket);
    socket.end();
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!inFlight?.headersSent) {
      if (error.code === "HPE_INVALID_METHOD") refuse(socket);
      else answer(socket, PARSE_ERROR_ANSWERS[error.code ?? ""] ?? "400 Bad Request", {});
    }
    socket.destroy(error);
  });
}

/**
 * Refuses a state change sent from another site. Browsers send Origin with every POST (and
 * Sec-Fetch-Site); a request with neither is not from a browser page, so it cannot ride on a
 * visitor's cookies.
 */
export function sameOriginPosts(publicUrl: URL, exemptPrefixes: readonly string[] = []) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || exemptPrefixes.some((p) => req.path.startsWith(p)))
      return next();
    const origin = req.get("Origin");
    const fetchSite = req.get("Sec-Fetch-Site");
    const allowed = origin
      ? origin === publicUrl.origin
      : fetchSite === undefined || fetchSite === "same-origin" || fetchSite === "none";
    if (allowed) return next();
    res
      .status(403)
      .type("text/plain; charset=utf-8")
      .send("Solicitud rechazada: el formulario no se envió desde este sitio.");
  };
}

/**
 * A fixed-window limit per client address (express-rate-limit), counted in `store`: the database
 * (app/members/sign-in-limit.server.ts), so that it holds across processes and machines. The
 * address is `req.ip`, which Express derives from the "trust proxy" setting (TRUST_PROXY): only
 * the hops the site trusts are read from X-Forwarded-For, so a client cannot choose the address
 * counted. Should the count fail (the database briefly away) the attempt goes on uncounted: the
 * sign-in it leads to needs the database too, and answers for itself.
 */
export function rateLimit(options: { limit: number; windowMs: number; store: Store }) {
  return expressRateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    store: options.store,
    passOnStoreError: true,
    standardHeaders: "draft-6",
    legacyHeaders: false,
    handler: (_req, res, _next, used) => {
      const resetTime = (_req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit
        ?.resetTime;
      const seconds = resetTime
        ? Math.ceil((resetTime.getTime() - Date.now()) / 1000)
        : Math.ceil(used.windowMs / 1000);
      res.setHeader("Retry-After", String(Math.min(Math.max(seconds, 1), 60)));
      res
        .status(used.statusCode)
        .type("text/plain; charset=utf-8")
        .send("Demasiados intentos de inicio de sesión. Espera un minuto y vuelve a intentarlo.");
    },
  });
}

/**
 * Form posts are small. React Router reads a request body whole, so a body larger than
 * `maxBytes` (or one of unknown length) is refused before any route sees it. Paths in `larger`
 * (the upload endpoint, which streams and limits each file itself) and paths `largerMatching`
 * matches (a payment page, which takes a receipt) get their own ceiling.
 */
export function bodySizeLimit(
  maxBytes: number,
  larger: Readonly<Record<string, number>> = {},
  largerMatching: ReadonlyArray<readonly [RegExp, number]> = [],
) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const limit = Object.hasOwn(larger, req.path)
      ? larger[req.path]!
      : (largerMatching.find(([pattern]) => pattern.test(req.path))?.[1] ?? maxBytes);
    const declared = req.get("Content-Length");
    if (declared === undefined && req.get("Transfer-Encoding") !== undefined) {
      res.status(411).type("text/plain; charset=utf-8").send("Falta la longitud de la solicitud.");
      return;
    }
    if (declared !== undefined && !(Number(declared) <= limit)) {
      res.status(413).type("text/plain; charset=utf-8").send("La solicitud es demasiado grande.");
      return;
    }
    next();
  };
}
