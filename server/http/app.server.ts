// The Express server: headers, static files, health check, sign-in limits, the development
// sign-in provider and React Router. `startServer` is what `npm start`, the tests and the
// benchmark call.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { CONSOLE_LINK_PATH } from "~/members/console-link.server";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import type { AppLoadContext, ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { Config } from "~/kernel/config.server";
import type { AuthService } from "~/members/oidc.server";
import { authServiceFor } from "./auth.server";
import { signInAttemptStore } from "~/members/sign-in-limit.server";
import { startJobs } from "./jobs.server";
import { onUpgradeTrial } from "~/kernel/upgrade-trial.server";
import { databaseIsUp, openDatabase, type Database } from "~/db/client.server";
import { seedDemoSite } from "~/demo.server";
import { MAIL_MESSAGES } from "~/mail/messages";
import { createDecodeQueue, type DecodeQueue } from "~/uploads/decode-queue.server";
import { checkObjectStore } from "~/uploads/object-storage.server";
import { siteStorage } from "~/uploads/site-storage.server";
import { UPLOAD_ENDPOINT, UPLOAD_FILE_NAME, UPLOAD_MAX_FILES } from "~/kernel/images";
import { ipKeyGenerator } from "express-rate-limit";
import { mailWorkerFor } from "~/mail/worker.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { signInMailerFor, type SignInMailer } from "~/mail/sign-in-mail.server";
import { unsubscribe } from "~/mail/mail.server";
import { watchEventEnds } from "~/events/event.server";
import { loadSiteSections, seedSiteSections, watchSiteSections } from "~/site/sections.server";
import { CLIENT_BUILD_DIR } from "~/kernel/paths.server";
import { PUBLICATIONS_STREAM_PATH, createPublicationStream } from "./publication-stream.server";
import { RESULTS_STREAM_PATH, createResultsStream } from "./results-stream.server";
import { encodingFor } from "~/kernel/encoding.server";
import { ECHO_CHALLENGE_MAX, ECHO_HEADER, siteEcho } from "~/kernel/site-echo.server";
import type { DiagnosticProbe } from "~/kernel/diagnostics";
import { backupProbe } from "../backup/probe.server";
import { createPageCache, markPersonal } from "./page-cache.server";
import { brotliAssets, dropPageHeaders } from "./static-assets.server";
import { shareDrainListener } from "./drain.server";
import {
  bodySizeLimit,
  rateLimit,
  refuseMethodsBeforeParsing,
  answerMethodOutsideHandlers,
  sameOriginPosts,
  securityHeaders,
} from "./security.server";

/** Where every mail's unsubscribe link points (app/routes/mail/unsubscribe.tsx). */
const UNSUBSCRIBE_PATH = "/correo/baja/";

/** The largest form post accepted (long texts in the content forms fit with room to spare). */
const MAX_BODY_BYTES = 1024 * 1024;
const TREASURY_PATH = "/tesoreria";
const PAYMENT_PAGE = /^\/detalles\/[0-9a-f-]{36}\/pago(\.data)?$/;
/** A team's page takes its robot's photo (decision 052). */
const TEAM_PAGE = /^\/equipos\/[0-9a-f-]{36}(\.data)?$/;

/**
 * How long a client may take to send a request's headers, and the whole request with its body,
 * before the connection is closed (408): a slow client cannot hold a connection for minutes.
 * Answers (the live stream included) are not limited by these. See docs/produccion.md.
 */
const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000 };
const KEEP_ALIVE_MS = 65_000;

export interface StartOptions {
  config: Config;
  /** An open database to use (and leave open); otherwise one is opened from `config`. */
  database?: Database;
  /** Vite's development server, for `npm run dev`. */
  vite?: ViteDevServer;
  log?: (line: string) => void;
  /** How often the live stream writes a heartbeat and asks again who listens (default 25 s). */
  heartbeatMs?: number;
  /**
   * The development sign-in provider of a cluster's primary process, on this loopback port
   * (server.js), instead of one in this process (app/members/dev-provider.server.ts).
   */
  devProviderPort?: number;
  /** Overrides HTTP_TIMEOUTS (a server embedded elsewhere may want others). */
  httpTimeouts?: { headersMs: number; requestMs: number };
  /**
   * The server's clock (default the system's): what "now" is for pages and rules that change with
   * time (an event that has ended) and for the page cache's expiry. Tests move it instead of waiting.
   */
  now?: () => Date;
  /** How long the start-up check of the object store waits for it (default STORE_CHECK_MS, 30 s). */
  storeCheckMs?: number;
}

export interface RunningServer {
  url: URL;
  config: Config;
  database: Database;
  server: http.Server;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase(options.config));
  let listening: http.Server | undefined;
  let stopWatchingSite: (() => Promise<void>) | undefined;
  let stopWatchingEvents: (() => Promise<void>) | undefined;
  let closePageCache: (() => Promise<void>) | undefined;
  try {
    // A wrong endpoint, bucket or key stops the server here, naming the variable; a store that
    // is away for a moment is waited for (docs/decisions/032-object-storage.md).
    if (options.config.objectStore)
      await checkObjectStore(options.config.objectStore, {
        waitMs: options.storeCheckMs,
        log,
      });
    if (options.config.seedDemo) await seedDemoSite(database.db);
    // The landing sections' defaults, once per section (docs/decisions/023-site-content.md), and
    // the content kept in memory from then on.
    await seedSiteSections(database.db);
    stopWatchingSite = await watchSiteSections(database);
    await loadSiteSections(database.db);
    // When each event starts, for the counts of /eventos.
    stopWatchingEvents = await watchEventEnds(database);

    const app = express();
    app.disable("x-powered-by");
    app.set("trust proxy", options.config.trustProxy);
    // The port is known only once listening (PORT=0 in tests); requests wait until every
    // handler below is in place.
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    app.use((_req, _res, next) => {
      ready.then(() => next(), next);
    });
    // Visitors' pages from memory, already compressed (docs/decisions/015-page-cache.md), answered
    // before Express: a cached page needs none of its work.
    const now = options.now ?? (() => new Date());
    const pageCache = createPageCache(database, { now: () => now().getTime() });
    closePageCache = pageCache.close;
    const timeouts = options.httpTimeouts ?? HTTP_TIMEOUTS;
    const server = http.createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        // Node looks for overdue requests this often (30 s by default, longer than the limits).
        connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
      },
      (req, res) => {
        if (answerMethodOutsideHandlers(req, res)) return;
        if (!pageCache.serve(req, res, app)) app(req, res);
      },
    );
    refuseMethodsBeforeParsing(server);
    // An idle kept-alive connection stays open longer than clients keep one for reuse (fetch
    // and browsers up to about a minute, proxies 60 s): closed first, at Node's default of 5 s,
    // a request sent on it at that moment meets a reset. Idle connections hold no request, so
    // the limits above do not apply to them; close() ends them at once.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    listening = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.config.port, options.config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    let publicUrl = options.config.publicUrl;
    if (publicUrl.port === "0") {
      const host =
        /^\d+\.\d+\.\d+\.\d+$/.test(options.config.host) && options.config.host !== "0.0.0.0"
          ? options.config.host
          : "localhost";
      publicUrl = new URL(`http://${host}:${port}`);
    }
    const config: Config = { ...options.config, port, publicUrl };

    let auth: AuthService | null = null;
    app.use(
      securityHeaders({
        production: config.production,
        viteDev: Boolean(options.vite),
        publicUrl,
        formActionOrigins: () =>
          (auth?.formActionOrigins ?? []).filter((o) => o !== publicUrl.origin),
      }),
    );

    app.get("/healthz", async (req, res) => {
      const up = await databaseIsUp(database.db);
      res.setHeader("Cache-Control", "no-store");
      // Diagnóstico's question through PUBLIC_URL: is it this site answering?
      const challenge = req.get(ECHO_HEADER);
      if (challenge && challenge.length <= ECHO_CHALLENGE_MAX)
        res.setHeader(ECHO_HEADER, siteEcho(config.sessionSecret, challenge));
      res
        .status(up ? 200 : 503)
        .json({ status: up ? "ok" : "unavailable", database: up ? "ok" : "unavailable" });
    });

    // Before compression, which would hold the live stream's events back.
    const publicationStream = createPublicationStream(database, config, {
      maxPerSession: config.liveStreamsPerSession,
      heartbeatMs: options.heartbeatMs,
    });
    app.get(PUBLICATIONS_STREAM_PATH, (req, res, next) => {
      publicationStream.handle(req, res).catch(next);
    });
    // Competitions' live results (decision 058): public, capped per client address and in total.
    const resultsStream = createResultsStream(database, {
      maxPerAddress: config.resultsStreamsPerAddress,
      maxTotal: config.resultsStreamsMax,
      heartbeatMs: options.heartbeatMs,
    });
    app.get(RESULTS_STREAM_PATH, (req, res, next) => {
      resultsStream.handle(req, res).catch(next);
    });

    // Uploaded images: named by their content, so a name always means the same bytes
    // (docs/decisions/022-uploads.md). Before the page cache and compression (WebP is compressed).
    // Served from the folder or the bucket alike (app/uploads/storage.server.ts).
    const uploads = siteStorage(config);
    app.use("/imagenes", (req, res, next) => {
      const name = req.path.slice(1);
      if (!UPLOAD_FILE_NAME.test(name) || (req.method !== "GET" && req.method !== "HEAD"))
        return next();
      uploads.serve(name, req, res, next);
    });

    // Before compression: these copies are compressed already (server/http/static-assets.server.ts).
    if (!options.vite) app.use("/assets", brotliAssets(path.join(CLIENT_BUILD_DIR, "assets")));
    app.use(compression());
    app.use(shareDrainListener);
    if (options.vite) {
      app.use(options.vite.middlewares);
    } else {
      const clientDir = CLIENT_BUILD_DIR;
      app.use(
        "/assets",
        express.static(path.join(clientDir, "assets"), {
          immutable: true,
          maxAge: "1y",
          index: false,
          setHeaders: dropPageHeaders,
        }),
      );
      // Public files all have an extension; pages never do, so they skip the file-system lookup.
      const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
      app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
    }

    guardSignInAndBodies(app, database, config);

    auth = await authServiceFor(app, config, options.devProviderPort);
    const authService = auth;
    const signInMailer = signInMailerFor(config, MAIL_DRAFTS.siteName);

    const vite = options.vite;
    // Under Vite the build is asked for on each request (it changes as files are edited). The
    // production build is loaded once: given a function, React Router derives its routes and
    // handlers again on every request.
    //
    // React Router refuses an action whose Origin is not the address the request reached, which
    // it builds from Host: behind a proxy that rewrites Host, every page's form would answer 'Bad
    // Request'. The site's own check (sameOriginPosts, above) holds Origin to PUBLIC_URL, never
    // to Host, so that origin is the one React Router allows too.
    const originOfSite = (loaded: ServerBuild): ServerBuild => ({
      ...loaded,
      allowedActionOrigins: [publicUrl.host],
    });
    const build = vite
      ? () =>
          (vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>).then(
            originOfSite,
          )
      : originOfSite((await import("virtual:react-router/server-build")) as ServerBuild);
    const decodeQueue = createDecodeQueue(config.uploadDecodes, config.uploadQueue);
    app.all(
      "/{*path}",
      pageCache.capture,
      createRequestHandler({
        build,
        // Error details (stack traces, server paths) leave the server only under `npm run dev`.
        mode: vite ? "development" : "production",
        getLoadContext: (req, res) =>
          loadContextOf(req, res, app, {
            database,
            config,
            auth: authService,
            signInMailer,
            now,
            decodeQueue,
            vite: Boolean(vite),
          }),
      }),
    );

    app.use(answerUnhandled);

    // The jobs on a timer: each run is claimed in the database, so that one process of all
    // those serving the site does it (docs/decisions/031-limits-and-jobs-across-nodes.md).
    const stopJobs = startJobs(database, config, now);
    // Every process sends mail; they share the queue (docs/decisions/021-mail.md).
    const mailWorker = mailWorkerFor(database.db, config, MAIL_DRAFTS);
    await mailWorker?.start(database);

    markReady();
    if (onUpgradeTrial(config.dataDir))
      log(
        "Prueba de una actualización: no se envían correos ni se ejecutan tareas hasta que ./ayllu upgrade la confirme.",
      );
    log(
      `Ayllu escucha en ${publicUrl.origin} (base de datos ${database.kind}: ${database.location})`,
    );
    logHowItSends(log, config);

    let closing: Promise<void> | null = null;
    return {
      url: publicUrl,
      config,
      database,
      server,
      close() {
        closing ??= (async () => {
          await publicationStream.close();
          await resultsStream.close();
          await stopJobs();
          await mailWorker?.stop();
          await pageCache.close();
          await stopWatchingSite?.();
          await stopWatchingEvents?.();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 5000).unref();
          });
          if (ownsDatabase) await database.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    listening?.close();
    await closePageCache?.().catch(() => {});
    await stopWatchingSite?.().catch(() => {});
    await stopWatchingEvents?.().catch(() => {});
    if (ownsDatabase) await database.close();
    throw error;
  }
}

/** The last handler: a client's own mistake is a 400 in Spanish, anything else a 500 without details. */
function answerUnhandled(
  error: unknown,
  _req: express.Request,
  res: express.Response,
  _next: express.NextFunction,
) {
  // Express marks the client's own mistakes (a path that is not valid percent-encoding) with a 4xx.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (!res.headersSent)
      res.status(status).type("text/plain; charset=utf-8").send("Solicitud no válida.");
    return;
  }
  console.error(error);
  if (res.headersSent) return;
  res
    .status(500)
    .type("text/plain; charset=utf-8")
    .send("Error del servidor. Por favor, inténtalo de nuevo.");
}

/** What the log says at start of how the site signs in and sends mail. */
function logHowItSends(log: (line: string) => void, config: Config) {
  const publicUrl = config.publicUrl;
  if (config.oidc.kind === "development") {
    log(
      "Inicio de sesión: proveedor de desarrollo (cualquier correo). Configura GOOGLE_CLIENT_ID para usar Google.",
    );
  }
  const mailTransport = config.mail.transport;
  if (mailTransport.kind === "smtp") {
    log(`Correo: se envía por SMTP (${new URL(mailTransport.url).host}) como ${config.mail.from}.`);
  } else if (mailTransport.kind === "mailbox") {
    log(
      `Correo: sin SMTP_URL no se envía; los correos quedan en el buzón de desarrollo (solo administradores), ${publicUrl.origin}/__dev/correo`,
    );
  } else {
    log(
      "AVISO: SMTP_URL no está configurada: no se enviará ningún correo (confirmaciones, recordatorios, avisos). " +
        "Los correos esperan en cola hasta 72 horas; configura SMTP_URL y MAIL_FROM y reinicia.",
    );
  }
}

/**
 * Before the pages: the sign-in limits, the one-click unsubscribe posted from anywhere, the check
 * that every other post comes from the site, and the bodies' size limits.
 */
function guardSignInAndBodies(app: express.Express, database: Database, config: Config) {
  const publicUrl = config.publicUrl;
  const signInLimit = rateLimit({
    limit: config.loginRateLimit,
    windowMs: 60_000,
    store: signInAttemptStore(database.db),
  });
  // "/login.data" is the same action, reached by the client-side router.
  app.post(["/login", "/login.data"], signInLimit);
  // The e-mailed links: asking for one (also limited per address and per client in its domain)
  // and confirming one on another device.
  app.post(["/login/correo", "/login/correo.data", "/login/enlace/{*token}"], signInLimit);
  // An admin's link from the server's console (decision 074).
  app.post(`${CONSOLE_LINK_PATH}{*token}`, signInLimit);
  app.use("/auth", signInLimit);
  app.use("/__dev/oidc/interaction", signInLimit);
  // One-click unsubscribe (RFC 8058) is posted by mail programs, from anywhere; the token in
  // the link, not a cookie, is its authority (docs/decisions/021-mail.md). React Router refuses
  // an action posted with another site's Origin, so such a post is answered here. A console link
  // is confirmed at whatever address it was opened (PUBLIC_URL may be the very thing that is
  // wrong): its signed token is its authority, and React Router still holds its Origin to the
  // address the request reached.
  app.use(sameOriginPosts(publicUrl, ["/__dev/oidc/", UNSUBSCRIBE_PATH, CONSOLE_LINK_PATH]));
  app.post(`${UNSUBSCRIBE_PATH}:token/:tema`, (req, res, next) => {
    const origin = req.get("Origin");
    if (!origin || origin === publicUrl.origin) return next();
    unsubscribe(database.db, req.params.token, req.params.tema).then((done) => {
      res.setHeader("Cache-Control", "no-store");
      res
        .status(done ? 200 : 404)
        .type("text/plain; charset=utf-8")
        .send(done ? "Te diste de baja." : MAIL_MESSAGES.unsubscribeInvalid);
    }, next);
  });
  app.use(
    bodySizeLimit(
      MAX_BODY_BYTES,
      {
        [UPLOAD_ENDPOINT]: UPLOAD_MAX_FILES * config.uploadMaxBytes + MAX_BODY_BYTES,
        // The bank's QR, one image posted by the treasurer's form (decision 048).
        [TREASURY_PATH]: config.uploadMaxBytes + MAX_BODY_BYTES,
        [`${TREASURY_PATH}.data`]: config.uploadMaxBytes + MAX_BODY_BYTES,
      },
      // A member's payment page takes the receipt, one photo or PDF.
      [
        [PAYMENT_PAGE, config.uploadMaxBytes + MAX_BODY_BYTES],
        [TEAM_PAGE, config.uploadMaxBytes + MAX_BODY_BYTES],
      ],
    ),
  );
}

/** Diagnóstico's probes of the host's own parts (app/diagnostics.server.ts runs them with the rest). */
const HOST_PROBES: DiagnosticProbe[] = [backupProbe];

/** What every loader and action receives for one request (server/http/load-context.server.ts). */
function loadContextOf(
  req: express.Request,
  res: express.Response,
  app: express.Express,
  parts: {
    database: Database;
    config: Config;
    auth: AuthService | null;
    signInMailer: SignInMailer | null;
    now: () => Date;
    decodeQueue: DecodeQueue;
    vite: boolean;
  },
): AppLoadContext {
  const { database, config, vite } = parts;
  return {
    db: database.db,
    config,
    auth: parts.auth,
    signInMailer: parts.signInMailer,
    clientAddress: ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? ""),
    requestSeen: () => ({
      clientIp: req.ip ?? "",
      peerIp: req.socket.remoteAddress ?? "",
      protocol: req.protocol,
      host: req.hostname,
      // Express's own rule: X-Forwarded-Host only from a trusted proxy.
      authority:
        (app.get("trust proxy fn")(req.socket.remoteAddress ?? "", 0)
          ? req.get("x-forwarded-host")?.split(",")[0]?.trim()
          : undefined) ??
        req.get("host") ??
        "",
      forwardedFor: req.get("x-forwarded-for") ?? null,
      forwardedProto: req.get("x-forwarded-proto") ?? null,
      forwardedHost: req.get("x-forwarded-host") ?? null,
    }),
    now: parts.now,
    hostProbes: HOST_PROBES,
    decodeQueue: parts.decodeQueue,
    personal: () => markPersonal(res),
    // Vite's development pages run under a nonce-less policy; a nonce there only trips hydration.
    cspNonce: vite ? "" : String(res.locals.cspNonce),
    documentEncoding:
      res.locals.pageCacheKeeps || vite ? "identity" : encodingFor(req.headers["accept-encoding"]),
  };
}
