// A rendered document that the page cache does not keep (a member's page, a 404) is compressed in
// one call by entry.server.tsx: brotli or gzip as the client accepts, with its length, and decodes
// to the whole page. The page cache still receives the document uncompressed.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { User } from "~/db/schema.server";
import { failOnConsoleError } from "../helpers/console";
import type { BrowserClient } from "../helpers/browser-client";
import { createAdmin, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  await createTestEvent(server.db, admin.user, { nombreEvento: "Evento comprimido" });
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

async function raw(path: string, headers: Record<string, string>) {
  // node's fetch decodes bodies itself; http.get keeps the bytes as sent.
  const { request } = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(new URL(path, server.url), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

test("a member's page is sent as brotli or gzip as accepted, with its length, and decodes whole", async () => {
  const cookie = admin.client.cookieHeader();
  for (const [accept, expected, decode] of [
    ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
    ["gzip", "gzip", gunzipSync],
  ] as const) {
    const page = await raw("/eventos", { cookie, "accept-encoding": accept });
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe(expected);
    expect(page.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(page.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(page.headers["content-length"])).toBe(page.body.length);
    const html = decode(page.body).toString("utf8");
    expect(html).toContain("Evento comprimido");
    expect(html).toContain(admin.user.displayName!);
    expect(html.endsWith("</html>")).toBe(true);
  }
  const plain = await raw("/eventos", { cookie });
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body.toString("utf8")).toContain("Evento comprimido");
});

test("a visitor's page the cache keeps is compressed by the cache, from the uncompressed document", async () => {
  let cached = null as Awaited<ReturnType<typeof raw>> | null;
  for (let i = 0; i < 20 && !cached?.headers["etag"]; i++)
    cached = await raw("/eventos", { "accept-encoding": "br" });
  expect(cached!.headers["etag"]).toBeDefined();
  expect(cached!.headers["content-encoding"]).toBe("br");
  const html = brotliDecompressSync(cached!.body).toString("utf8");
  expect(html).toContain("Evento comprimido");
  expect(html).not.toContain(admin.user.displayName!);
  const identity = await raw("/eventos", {});
  expect(identity.headers["content-encoding"]).toBeUndefined();
  expect(identity.body.toString("utf8")).toBe(html);
});
