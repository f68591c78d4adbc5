// Live results of a competition (decision 058): a public server-sent event stream per
// open results page or projector, fed by the database's LISTEN/NOTIFY (the judging tables'
// triggers send the category's id after each commit), so that an entry made through any server
// process reaches every viewer. A change is ranked once per process and the same frame goes to
// every viewer of that competition: no personal data (the results' public names only). Streams
// are capped per client address and in total; past either the page keeps its 30-second refresh.
import type { Request, Response } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import type { Database } from "~/db/client.server";
import { categoryResults, type CategoryResults } from "~/competitions/judging/results.server";
import { isUuid } from "~/kernel/checks";

export const RESULTS_CHANNEL = "ayllu_results";
/** /detalles/:eventId/resultados/en-vivo */
export const RESULTS_STREAM_PATH = "/detalles/:eventId/resultados/en-vivo";
const HEARTBEAT_MS = 25_000;
/** A burst of entries in one category is ranked once: the first waits this long for the rest. */
const GATHER_MS = 50;

export interface ResultsStreamOptions {
  heartbeatMs?: number;
  /** Streams one client address may hold (a school's hall shares one address). */
  maxPerAddress: number;
  /** Streams this process holds in all. */
  maxTotal: number;
}

export interface ResultsStream {
  handle(req: Request, res: Response): Promise<void>;
  /** How many streams are open, in all and for one competition. */
  size(eventId?: string): number;
  /** Sends a category's results to its viewers now (what a notification does). */
  publish(categoryId: string): Promise<void>;
  close(): Promise<void>;
}

/** The frame a viewer receives: the category's results as the page shows them. */
export function resultsFrame(results: CategoryResults): string {
  return `event: results\ndata: ${JSON.stringify(results)}\n\n`;
}

export function createResultsStream(
  database: Database,
  options: ResultsStreamOptions,
): ResultsStream {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const byEvent = new Map<string, Set<Response>>();
  const byAddress = new Map<string, number>();
  let total = 0;
  let unlisten: Promise<() => Promise<void>> | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;
  const gathering = new Map<string, Promise<void>>();

  const send = async (categoryId: string) => {
    // Nobody watching on this process (the last viewer left while listening): nothing to rank.
    if (total === 0) return;
    const results = await categoryResults(database.db, categoryId);
    if (!results) return;
    const viewers = byEvent.get(results.category.eventId);
    if (!viewers || viewers.size === 0) return;
    const frame = resultsFrame(results);
    for (const res of viewers) res.write(frame);
  };

  const publish = (categoryId: string): Promise<void> => {
    if (!isUuid(categoryId)) return Promise.resolve();
    let pending = gathering.get(categoryId);
    if (!pending) {
      pending = new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS))
        .then(() => {
          gathering.delete(categoryId);
          return send(categoryId);
        })
        .catch((error: unknown) => {
          gathering.delete(categoryId);
          console.error("No se pudieron enviar los resultados en vivo:", error);
        });
      gathering.set(categoryId, pending);
    }
    return pending;
  };

  const ensureListening = () => {
    unlisten ??= database
      .listen(RESULTS_CHANNEL, (payload) => void publish(payload))
      .catch((error: unknown) => {
        unlisten = null;
        throw error;
      });
    return unlisten;
  };

  const beat = () => {
    for (const viewers of byEvent.values()) for (const res of viewers) res.write(": latido\n\n");
  };

  const remove = (eventId: string, address: string, res: Response) => {
    const viewers = byEvent.get(eventId);
    if (!viewers?.delete(res)) return;
    if (viewers.size === 0) byEvent.delete(eventId);
    total--;
    const left = (byAddress.get(address) ?? 1) - 1;
    if (left <= 0) byAddress.delete(address);
    else byAddress.set(address, left);
    if (total === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  };

  const refuse = (res: Response, status: number, message: string) => {
    res.setHeader("Cache-Control", "no-store");
    // The page refreshes by itself; a browser's EventSource retries after this long.
    if (status === 503 || status === 429) res.setHeader("Retry-After", "30");
    res.status(status).type("text/plain; charset=utf-8").send(message);
  };

  return {
    async handle(req, res) {
      if (req.method !== "GET") {
        res.status(405).setHeader("Allow", "GET");
        res.end();
        return;
      }
      const eventId = req.params.eventId;
      if (!isUuid(eventId)) return refuse(res, 404, "Competencia no encontrada.");
      if (closed) return refuse(res, 503, "El servidor se está deteniendo.");
      const address = ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? "");
      try {
        await ensureListening();
      } catch (error) {
        console.error("No se pudo escuchar los resultados:", error);
        return refuse(res, 503, "Los resultados en vivo no están disponibles.");
      }
      // Checked and counted with nothing awaited between, so that a burst keeps to the caps.
      if (total >= options.maxTotal)
        return refuse(
          res,
          503,
          "Hay demasiadas pantallas conectadas: la página se actualiza sola.",
        );
      if ((byAddress.get(address) ?? 0) >= options.maxPerAddress)
        return refuse(
          res,
          429,
          "Demasiadas pantallas conectadas desde esta red: la página se actualiza sola.",
        );
      total++;
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      let viewers = byEvent.get(eventId);
      if (!viewers) {
        viewers = new Set();
        byEvent.set(eventId, viewers);
      }
      viewers.add(res);
      req.on("close", () => remove(eventId, address, res));
      res.status(200);
      res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
      res.setHeader("Cache-Control", "no-store, no-transform");
      res.setHeader("Connection", "keep-alive");
      res.setHeader("X-Accel-Buffering", "no");
      res.flushHeaders();
      res.write("retry: 3000\n: conectado\n\n");
      if (!heartbeat) {
        heartbeat = setInterval(beat, heartbeatMs);
        heartbeat.unref();
      }
    },
    size(eventId) {
      return eventId === undefined ? total : (byEvent.get(eventId)?.size ?? 0);
    },
    publish,
    async close() {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      for (const viewers of byEvent.values()) for (const res of viewers) res.end();
      byEvent.clear();
      byAddress.clear();
      total = 0;
      await Promise.allSettled([...gathering.values()]);
      const pending = unlisten;
      unlisten = null;
      if (pending) await (await pending.catch(() => null))?.().catch(() => {});
    },
  };
}
