// A reverse proxy on loopback that forwards every request to `target` and appends the address it
// was reached from to X-Forwarded-For, as nginx's `$proxy_add_x_forwarded_for` does: whatever the
// client wrote in that header stays in front of it.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface AppendingProxy {
  url: URL;
  close(): Promise<void>;
}

export async function startAppendingProxy(
  target: URL,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<AppendingProxy> {
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      ...options.headers,
      host: target.host,
    };
    const forwarded = req.headers["x-forwarded-for"];
    const client = req.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = forwarded ? `${String(forwarded)}, ${client}` : client;
    const upstream = http.request(
      target,
      { method: req.method, path: req.url, headers, localAddress: options.localAddress },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
