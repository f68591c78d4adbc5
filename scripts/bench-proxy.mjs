// The proxy of `npm run bench`'s two-node rows, in a process of its own: each request goes to the
// next node in turn over kept-alive connections, with the client's address appended to
// X-Forwarded-For (as nginx or Caddy in front of the nodes would). Usage: PORT TARGET_URL…
import http from "node:http";

const [portArg, ...targetArgs] = process.argv.slice(2);
const targets = targetArgs.map((t) => new URL(t));
const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }));
let turn = 0;

const server = http.createServer((req, res) => {
  const index = turn++ % targets.length;
  const target = targets[index];
  const forwarded = req.headers["x-forwarded-for"];
  const client = req.socket.remoteAddress ?? "";
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      agent: agents[index],
      headers: {
        ...req.headers,
        "x-forwarded-for": forwarded ? `${String(forwarded)}, ${client}` : client,
      },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg), "127.0.0.1", () => process.send?.("listening"));
process.on("SIGTERM", () => process.exit(0));
