// A long page written through compression leaves no listener behind: the admin panel with a few
// hundred published events, gzip-compressed, raised MaxListenersExceededWarning on the gzip stream
// (React Router waits for 'drain' once per full buffer, compression() forwarded each wait to its
// stream and never removed it). server/http/drain.server.ts.
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
  for (let i = 0; i < 300; i++) {
    await createTestEvent(server.db, admin.user, { nombreEvento: `Evento largo ${i}` });
  }
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

test("the admin panel with 300 events, compressed, raises no process warning and arrives whole", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    for (let i = 0; i < 3; i++) {
      const page = await fetch(new URL("/admin", server.url), {
        headers: { cookie: admin.client.cookieHeader(), "accept-encoding": "gzip" },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-encoding")).toBe("gzip");
      // Over 256 KB: streamed by the compression middleware, not compressed in one call
      // (docs/decisions/026-documents-compressed-in-one-call.md).
      expect(page.headers.get("transfer-encoding")).toBe("chunked");
      const html = await page.text();
      expect(html).toContain("Evento largo 0");
      expect(html).toContain("Evento largo 299");
      expect(html).toContain("</html>");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("warning", onWarning);
  }
  expect(warnings).toEqual([]);
});
