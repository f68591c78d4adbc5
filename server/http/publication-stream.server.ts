// The live content lists (§7 live subscriptions, admins only): a server-sent event stream per open
// /projectsandnotes page, fed by the database's LISTEN/NOTIFY so that a change made through any
// server process on the same database reaches every stream.
import type { Request, Response } from "express";
import { getSessionUser, sessionKeyOf } from "~/members/session.server";
import type { Config } from "~/kernel/config.server";
import type { Database } from "~/db/client.server";
import { PUBLICATIONS_CHANNEL, parsePublicationChange } from "~/db/notify.server";
import { may, type Grant } from "~/kernel/permissions";
import type { User } from "~/db/schema.server";

/** Whether the session's member may still see the lists: an admin or an editor, read now. */
function mayWatch(user: (User & { grants: Grant[] }) | null): boolean {
  return may(user, "publications.manage");
}

export const PUBLICATIONS_STREAM_PATH = "/projectsandnotes/stream";
const HEARTBEAT_MS = 25_000;
const DEFAULT_STREAMS_PER_SESSION = 5;

interface PublicationStreamOptions {
  /** How often a comment keeps idle proxies from closing the streams, and who listens is checked. */
  heartbeatMs?: number;
  /** Streams one session may hold open; opening one more closes the oldest. */
  maxPerSession?: number;
}

export interface PublicationStream {
  handle(req: Request, res: Response): Promise<void>;
  /** How many streams are open (for tests and logs). */
  size(): number;
  /** Heartbeats sent so far and session checks made for them (for tests and logs). */
  stats(): { heartbeats: number; sessionChecks: number; sessions: number };
  /** Ends every open stream and stops listening, so that the server can stop at once. */
  close(): Promise<void>;
}

interface SessionStreams {
  /** A request carrying the session's cookie, to ask again who it belongs to. */
  request: globalThis.Request;
  /** Open streams, oldest first. */
  streams: Set<Response>;
}

export function createPublicationStream(
  database: Database,
  config: Config,
  options: PublicationStreamOptions = {},
): PublicationStream {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const maxPerSession = options.maxPerSession ?? DEFAULT_STREAMS_PER_SESSION;
  const cookieSettings = { secure: config.publicUrl.protocol === "https:" };
  const bySession = new Map<string, SessionStreams>();
  let unlisten: Promise<() => Promise<void>> | null = null;
  let closed = false;
  let heartbeat: NodeJS.Timeout | null = null;
  let heartbeats = 0;
  let sessionChecks = 0;

  const allStreams = function* () {
    for (const entry of bySession.values()) yield* entry.streams;
  };

  const broadcast = (payload: string) => {
    const change = parsePublicationChange(payload);
    if (!change) return;
    const frame = `event: content\ndata: ${JSON.stringify(change)}\n\n`;
    for (const res of allStreams()) res.write(frame);
  };

  const ensureListening = () => {
    unlisten ??= database.listen(PUBLICATIONS_CHANNEL, broadcast).catch((error: unknown) => {
      unlisten = null;
      throw error;
    });
    return unlisten;
  };

  // One timer for every stream, and one session check per session (not per stream) each beat:
  // a signed-out or demoted admin's streams all end together.
  const beat = () => {
    heartbeats++;
    for (const [key, entry] of bySession) {
      sessionChecks++;
      getSessionUser(database.db, entry.request, cookieSettings)
        .then((current) => mayWatch(current))
        .then(
          (allowed) => {
            for (const res of entry.streams) {
              if (allowed) res.write(": latido\n\n");
              else res.end();
            }
            if (!allowed) bySession.delete(key);
          },
          () => {
            for (const res of entry.streams) res.write(": latido\n\n");
          },
        );
    }
  };

  const remove = (key: string, res: Response) => {
    const entry = bySession.get(key);
    if (entry?.streams.delete(res) && entry.streams.size === 0) bySession.delete(key);
    if (bySession.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  };

  return {
    async handle(req, res) {
      // Express routes HEAD to GET handlers; a stream answered to HEAD would only hang.
      if (req.method !== "GET") {
        res.status(405).setHeader("Allow", "GET");
        res.end();
        return;
      }
      const request = new globalThis.Request(new URL(req.originalUrl, config.publicUrl), {
        headers: { cookie: req.get("cookie") ?? "" },
      });
      const user = await getSessionUser(database.db, request, cookieSettings);
      const key = sessionKeyOf(request, cookieSettings);
      res.setHeader("Cache-Control", "no-store");
      if (!mayWatch(user) || !key) {
        res
          .status(user ? 403 : 401)
          .type("text/plain; charset=utf-8")
          .send("Acceso denegado. No eres un administrador.");
        return;
      }
      if (closed) {
        res.status(503).type("text/plain; charset=utf-8").send("El servidor se está deteniendo.");
        return;
      }
      try {
        await ensureListening();
      } catch (error) {
        console.error("No se pudo escuchar los cambios de contenido:", error);
        res
          .status(503)
          .type("text/plain; charset=utf-8")
          .send("Las actualizaciones en vivo no están disponibles.");
        return;
      }
      res.status(200);
      res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
      res.setHeader("Cache-Control", "no-store, no-transform");
      res.setHeader("Connection", "keep-alive");
      res.setHeader("X-Accel-Buffering", "no");
      res.flushHeaders();
      res.write("retry: 2000\n: conectado\n\n");

      let entry = bySession.get(key);
      if (!entry) {
        entry = { request, streams: new Set() };
        bySession.set(key, entry);
      }
      entry.streams.add(res);
      // Past the limit the oldest stream of this session ends (a tab left open long ago).
      for (const oldest of entry.streams) {
        if (entry.streams.size <= maxPerSession) break;
        entry.streams.delete(oldest);
        oldest.end();
      }
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
      req.on("close", () => remove(key, res));
    },
    size: () => {
      let n = 0;
      for (const entry of bySession.values()) n += entry.streams.size;
      return n;
    },
    stats: () => ({ heartbeats, sessionChecks, sessions: bySession.size }),
    async close() {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      for (const res of allStreams()) res.end();
      bySession.clear();
      const pending = unlisten;
      unlisten = null;
      if (pending) await (await pending.catch(() => null))?.().catch(() => {});
    },
  };
}
