import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** fetch refuses to send TRACE and CONNECT; node:http sends any method. */
function send(method: string, path: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(new URL(path, server.url), { method }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      });
      req.on("error", reject);
      req.end(method === "PUT" || method === "PATCH" ? "titulo=x" : undefined);
    },
  );
}

/** Writes `request` on a socket of its own and resolves with everything answered until it closes. */
function raw(request: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(server.url.port), server.url.hostname);
    let answer = "";
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

/** Everything the server writes to its log while `run` runs but for plain lines (console.log). */
async function logDuring(run: () => Promise<void>): Promise<unknown[][]> {
  const spies = [
    vi.spyOn(console, "error"),
    vi.spyOn(console, "warn"),
    vi.spyOn(process.stderr, "write"),
  ];
  try {
    await run();
    return spies.flatMap((spy) => spy.mock.calls as unknown[][]);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

const REFUSED = /^Método no permitido/;

test("methods the site does not serve are refused with 405 and Allow on every path, cached pages included, and nothing is logged", async () => {
  // The home page, kept by the page cache after a visitor's first request.
  expect((await send("GET", "/")).status).toBe(200);
  expect((await send("GET", "/")).status).toBe(200);
  const image = `/imagenes/${"0".repeat(32)}-320.webp`;
  const log = await logDuring(async () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "PROPFIND"]) {
      for (const path of ["/", "/healthz", "/imagenes/x", image, "/eventos", "/login"]) {
        const reply = await send(method, path);
        expect(reply.status, `${method} ${path}`).toBe(405);
        expect(reply.headers.allow, `${method} ${path}`).toBe("GET, HEAD, POST");
        expect(reply.body, `${method} ${path}`).toMatch(REFUSED);
      }
    }
  });
  expect(log).toEqual([]);
});

test("CONNECT and methods Node's parser does not know get the same 405, not a dropped connection or a 400", async () => {
  const log = await logDuring(async () => {
    for (const request of [
      `CONNECT ${server.url.host} HTTP/1.1\r\nHost: ${server.url.host}\r\n\r\n`,
      `FOO / HTTP/1.1\r\nHost: ${server.url.host}\r\n\r\n`,
    ]) {
      const answer = await raw(request);
      expect(answer, request).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer, request).toMatch(/\r\nAllow: GET, HEAD, POST\r\n/);
      expect(answer.split("\r\n\r\n")[1], request).toMatch(REFUSED);
    }
  });
  expect(log).toEqual([]);
  // A request Node cannot parse for another reason is answered as Node always did.
  expect(await raw(`GET / HTTP/1.1\r\nHost ${server.url.host}\r\n\r\n`)).toMatch(
    /^HTTP\/1\.1 400 Bad Request\r\n/,
  );
});

test("GET, HEAD and POST are served as before", async () => {
  expect((await send("GET", "/healthz")).status).toBe(200);
  expect((await send("HEAD", "/")).status).toBe(200);
  const post = await send("POST", "/logout");
  expect(post.status).toBeLessThan(500);
  expect(post.body).not.toMatch(REFUSED);
});

test("OPTIONS is answered on every path with the methods served, before any handler, and nothing is logged", async () => {
  const logged = await logDuring(async () => {
    for (const path of ["/", "/eventos", "/auth/callback?code=x&state=y", "/subidas", "/healthz"]) {
      const answer = await send("OPTIONS", path);
      expect(answer.status, path).toBe(204);
      expect(answer.headers.allow, path).toBe("GET, HEAD, POST");
      expect(answer.body, path).toBe("");
      expect(answer.headers["set-cookie"], path).toBeUndefined();
    }
  });
  expect(logged).toEqual([]);
});
