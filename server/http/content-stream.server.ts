// The live content lists (§7 live subscriptions, admins only): a server-sent event stream per open
// /projectsandnotes page, fed by the database's LISTEN/NOTIFY so that a change made through any
// server process on the same database reaches every stream.
import type { Request, Response } from "express";
import { getSessionUser } from "../auth/session.server";
import type { Config } from "../config.server";
import type { Database } from "../db/client.server";
import { CONTENT_CHANNEL, parseContentChange } from "../db/notify.server";
import { mayAdminister } from "../models/permissions.server";

export const CONTENT_STREAM_PATH = "/projectsandnotes/stream";
const HEARTBEAT_MS = 25_000;

export interface ContentStream {
  handle(req: Request, res: Response): Promise<void>;
  /** How many streams are open (for tests and logs). */
  size(): number;
  /** Ends every open stream and stops listening, so that the server can stop at once. */
  close(): Promise<void>;
}

export function createContentStream(
  database: Database,
  config: Config,
  { heartbeatMs = HEARTBEAT_MS }: { heartbeatMs?: number | undefined } = {},
): ContentStream {
  const clients = new Set<Response>();
  let unlisten: Promise<() => Promise<void>> | null = null;
  let closed = false;

  const broadcast = (payload: string) => {
    const change = parseContentChange(payload);
    if (!change) return;
    const frame = `event: content\ndata: ${JSON.stringify(change)}\n\n`;
    for (const res of clients) res.write(frame);
  };

  const ensureListening = () => {
    unlisten ??= database.listen(CONTENT_CHANNEL, broadcast).catch((error: unknown) => {
      unlisten = null;
      throw error;
    });
    return unlisten;
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
      const user = await getSessionUser(database.db, request, {
        secure: config.publicUrl.protocol === "https:",
      });
      res.setHeader("Cache-Control", "no-store");
      if (!mayAdminister(user)) {
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
      clients.add(res);
      // Each heartbeat also asks again who is listening: a signed-out or demoted admin's stream ends.
      const heartbeat = setInterval(() => {
        getSessionUser(database.db, request, {
          secure: config.publicUrl.protocol === "https:",
        }).then(
          (current) => {
            if (mayAdminister(current)) res.write(": latido\n\n");
            else res.end();
          },
          () => res.write(": latido\n\n"),
        );
      }, heartbeatMs);
      heartbeat.unref();
      req.on("close", () => {
        clearInterval(heartbeat);
        clients.delete(res);
      });
    },
    size: () => clients.size,
    async close() {
      closed = true;
      for (const res of clients) res.end();
      clients.clear();
      const pending = unlisten;
      unlisten = null;
      if (pending) await (await pending.catch(() => null))?.().catch(() => {});
    },
  };
}
