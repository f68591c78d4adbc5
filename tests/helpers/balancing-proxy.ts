// A load balancer on loopback in front of several app nodes: each request goes to the next node in
// turn, with the client's address appended to X-Forwarded-For (as the appending proxy does). A
// node that refuses the connection (it is down) is skipped and the request sent to the next: it
// never reached the node that refused it. A connection that breaks once the request was sent is
// answered 502 and not tried again (the node may have acted on it).
import http from "node:http";
import type { AddressInfo } from "node:net";

/** Sends a request to the node of this index in `targets`, instead of the next in turn. */
export const PIN_HEADER = "x-prueba-nodo";

export interface BalancingProxy {
  url: URL;
  /** The nodes requests go to, in turn; may be set after the proxy listens. */
  targets: URL[];
  /** How many requests each node (by origin) answered. */
  answered: Map<string, number>;
  close(): Promise<void>;
}

export async function startBalancingProxy(): Promise<BalancingProxy> {
  let turn = 0;
  const proxy: Omit<BalancingProxy, "url" | "close"> = { targets: [], answered: new Map() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const client = req.socket.remoteAddress ?? "";
      const forwarded = req.headers["x-forwarded-for"];
      const headers: http.OutgoingHttpHeaders = {
        ...req.headers,
        "x-forwarded-for": forwarded ? `${String(forwarded)}, ${client}` : client,
      };
      // A test may pin a request to one node (its index in `targets`).
      const pinned = Number(req.headers[PIN_HEADER]);
      const first = Number.isInteger(pinned) ? pinned : turn++;
      const attempt = (tried: number) => {
        if (tried >= proxy.targets.length) {
          res.writeHead(502, { "Content-Type": "text/plain" });
          res.end("Ningún nodo responde.");
          return;
        }
        const target = proxy.targets[(first + tried) % proxy.targets.length]!;
        const upstream = http.request(
          target,
          {
            method: req.method,
            path: req.url,
            // The Host the client sent, as a proxy in front of a site keeps it (nginx's
            // `proxy_set_header Host $host`): the site checks a post's Origin against it.
            headers,
            // A connection per request: after a node dies, its turn meets a refusal, not a stale socket.
            agent: false,
          },
          (answer) => {
            proxy.answered.set(target.origin, (proxy.answered.get(target.origin) ?? 0) + 1);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on("error", () => res.destroy());
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") return attempt(tried + 1);
          if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
          res.end();
        });
        upstream.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: new URL(`http://127.0.0.1:${port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}
