// A long page written through compression leaves no listener behind: a page of a few hundred KB,
// gzip-compressed, raised MaxListenersExceededWarning on the gzip stream (React Router waits for
// 'drain' once per full buffer, compression() forwarded each wait to its stream and never removed
// it). server/http/drain.server.ts. The page was the admin panel with 300 events until the panel
// came in pages of 50; the participants of an event with 400 members is such a page today.
import { afterAll, beforeAll, expect, test } from "vitest";
import { users, type User } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import { failOnConsoleError } from "../helpers/console";
import type { BrowserClient } from "../helpers/browser-client";
import { createAdmin, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
let eventId: string;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Evento grande" });
  eventId = event.id;
  for (let i = 0; i < 400; i++) {
    const [member] = await server.db
      .insert(users)
      .values({
        issuer: "https://cuentas.example",
        subject: `persona-${i}`,
        email: `persona-${i}@example.com`,
        emailVerified: true,
        nombreCompleto: `Persona Participante Número ${i} de la Comunidad`,
      })
      .returning();
    await joinEvent(server.db, member!, eventId);
  }
}, 300_000);
afterAll(() => server?.close());

failOnConsoleError();

test("a participants page of 400 members, compressed, raises no process warning and arrives whole", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    for (let i = 0; i < 3; i++) {
      const page = await fetch(new URL(`/admin/eventos/${eventId}/participantes`, server.url), {
        headers: { cookie: admin.client.cookieHeader(), "accept-encoding": "gzip" },
      });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-encoding")).toBe("gzip");
      // Over 256 KB: streamed by the compression middleware, not compressed in one call
      // (docs/decisions/026-documents-compressed-in-one-call.md).
      expect(page.headers.get("transfer-encoding")).toBe("chunked");
      const html = await page.text();
      expect(html.length).toBeGreaterThan(256 * 1024);
      expect(html).toContain("Persona Participante Número 0 de la Comunidad");
      expect(html).toContain("Persona Participante Número 399 de la Comunidad");
      expect(html).toContain("</html>");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("warning", onWarning);
  }
  expect(warnings).toEqual([]);
});
