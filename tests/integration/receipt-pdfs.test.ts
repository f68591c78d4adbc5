// Issue 52, point 1 (decision 061), through the real upload route: a PDF receipt is drawn to a
// picture and only the picture is kept, so no active content reaches the treasurer whatever its
// encoding. Ordinary PDFs made by pdfkit, Chromium, LibreOffice, qpdf and Ghostscript
// (tests/fixtures/receipts, made by scripts/make-receipt-fixtures.ts) are accepted; each hostile
// one is either refused in Spanish with nothing stored, or stored only as a JPEG served under a
// policy that runs nothing. A PDF stored before this change is only ever a download.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, payments } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import { grantRole } from "~/members/roles.server";
import { PdfRenderError, renderPdfPages } from "~/payments/pdf-pages.server";
import { RECEIPT_POLICY } from "../../server/http/security.server";
import type { BrowserClient } from "../helpers/browser-client";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const FIXTURES = path.join(import.meta.dirname, "../fixtures/receipts");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let treasurer: Awaited<ReturnType<typeof createMember>>;
let eventId: string;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  treasurer = await createMember(server);
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-06-06",
    capacity: "200",
  });
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
  eventId = event.id;
});
afterAll(() => server?.close());

async function heldMember() {
  const member = await createMember(server);
  await joinEvent(server.db, member.user, eventId);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.userId, member.user.id));
  return { ...member, payment: payment! };
}

function postPdf(client: BrowserClient, name: string, data: Buffer) {
  const form = new FormData();
  form.append("comprobante", new Blob([new Uint8Array(data)], { type: "application/pdf" }), name);
  return client.request("POST", `/detalles/${eventId}/pago`, { body: form });
}

const fieldError = (html: string) =>
  /<p class="field-error" id="pago-comprobante-error">([^<]*)<\/p>/.exec(html)?.[1] ?? null;

const privateFiles = () => fs.readdirSync(server.config.privateDir).sort();

/** The bytes of a payment's receipt as the treasurer's browser gets them, with the headers. */
async function served(paymentId: string) {
  const response = await fetch(new URL(`/pagos/${paymentId}/comprobante`, server.url), {
    headers: { Cookie: treasurer.client.cookieHeader() },
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Posts a PDF; when it is taken, checks that what is stored and served is a JPEG with no PDF in
 * it, shown inline under the sandbox policy. Returns the reply and the stored bytes, if any.
 */
async function send(name: string) {
  const member = await heldMember();
  const before = privateFiles();
  const reply = await postPdf(member.client, name, fixture(name));
  const [row] = await server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  if (reply.status !== 302) {
    expect(row!.receiptFile, name).toBeNull();
    expect(row!.status, name).toBe("pending");
    expect(privateFiles(), name).toEqual(before);
    return { reply, stored: null };
  }
  expect(row!.receiptFile, name).toMatch(/^[0-9a-f]{32}\.jpg$/);
  const stored = fs.readFileSync(path.join(server.config.privateDir, row!.receiptFile!));
  expect((await sharp(stored).metadata()).format, name).toBe("jpeg");
  expect(stored.includes("%PDF"), name).toBe(false);
  expect(stored.includes("JavaScript"), name).toBe(false);
  const { response, body } = await served(member.payment.id);
  expect(response.status, name).toBe(200);
  expect(response.headers.get("content-type"), name).toBe("image/jpeg");
  expect(response.headers.get("content-disposition"), name).toMatch(/^inline; /);
  expect(response.headers.get("content-security-policy"), name).toBe(RECEIPT_POLICY);
  expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
  expect(body.equals(stored), name).toBe(true);
  return { reply, stored };
}

test("ordinary receipts made by pdfkit, Chromium, LibreOffice, qpdf's object streams, a scan, a phone's narrow page and an owner-only password are kept as a picture of their pages", async () => {
  const benign = fs.readdirSync(FIXTURES).filter((n) => n.startsWith("benign-"));
  expect(benign.length).toBeGreaterThanOrEqual(7);
  for (const name of benign) {
    const { reply, stored } = await send(name);
    expect(reply.status, `${name}: ${fieldError(reply.text)}`).toBe(302);
    const meta = await sharp(stored!).metadata();
    // Readable on a phone: wide enough for the text, no wider than the cap.
    expect(meta.width, name).toBeGreaterThanOrEqual(600);
    expect(meta.width, name).toBeLessThanOrEqual(1240);
  }
});

test("the page is drawn, not blank: the receipt's dark text is in the picture", async () => {
  const { stored } = await send("benign-pdfkit.pdf");
  const { channels } = await sharp(stored!).stats();
  // A blank page is all white; text and the logo bring the minimum down.
  expect(channels[0]!.min).toBeLessThan(80);
});

// Each hostile PDF, and what it may end as: a picture (its active parts dropped with the PDF) or
// a refusal in Spanish.
const HOSTILE: Record<string, "picture" | RegExp> = {
  "hostile-js-hex-name.pdf": "picture",
  "hostile-launch-hex-name.pdf": "picture",
  "hostile-embedded-hex-name.pdf": "picture",
  "hostile-js-asciihex-stream.pdf": "picture",
  "hostile-js-in-object-stream.pdf": "picture",
  "hostile-openaction-js.pdf": "picture",
  "hostile-aa.pdf": "picture",
  "hostile-uri.pdf": "picture",
  "hostile-gotor.pdf": "picture",
  "hostile-submitform.pdf": "picture",
  "hostile-richmedia.pdf": "picture",
  "hostile-xfa.pdf": "picture",
  "hostile-incremental-js.pdf": "picture",
  "hostile-broken-xref.pdf": "picture",
  "hostile-deep-nesting.pdf": "picture",
  "hostile-huge-page.pdf": "picture",
  "hostile-image-bomb.pdf": "picture",
  "hostile-encrypted.pdf": /^«hostile-encrypted\.pdf» es un PDF protegido con contraseña\./,
  "hostile-many-pages.pdf":
    /^«hostile-many-pages\.pdf» tiene 3000 páginas; un comprobante puede tener hasta 4\./,
  "hostile-truncated.pdf": /^«hostile-truncated\.pdf» es un PDF dañado o que no se puede leer\./,
};

test("every hostile PDF is refused in Spanish with nothing stored, or kept only as a JPEG under a policy that runs nothing", async () => {
  const files = fs.readdirSync(FIXTURES).filter((n) => n.startsWith("hostile-"));
  expect(files.sort()).toEqual(Object.keys(HOSTILE).sort());
  for (const [name, expected] of Object.entries(HOSTILE)) {
    const { reply, stored } = await send(name);
    if (expected === "picture") {
      expect(reply.status, `${name}: ${fieldError(reply.text)}`).toBe(302);
      const meta = await sharp(stored!).metadata();
      // The pixel bombs come out no larger than one page's cap.
      expect(meta.width! * meta.height!, name).toBeLessThanOrEqual(1240 * 2000);
    } else {
      expect(reply.status, name).toBe(400);
      expect(fieldError(reply.text), name).toMatch(expected);
    }
  }
});

test("a drawing that runs out of time or of memory is stopped and refused, not a 500", async () => {
  // Its 20000 × 20000 image asks PDFium for about 80 MB: under the cap, over 24 MB.
  const pdf = fixture("hostile-image-bomb.pdf");
  for (const [limits, reason] of [
    [{ timeMs: 1, memoryBytes: 128 * 1024 * 1024 }, "time"],
    [{ timeMs: 8000, memoryBytes: 24 * 1024 * 1024 }, "memory"],
  ] as const) {
    const error = await renderPdfPages(pdf, "worker", limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfRenderError);
    expect((error as PdfRenderError).reason).toBe(reason);
  }
  // The child process, which the bench compares, stops in the same way.
  const error = await renderPdfPages(pdf, "process", { timeMs: 1, memoryBytes: 1 << 27 }).catch(
    (e: unknown) => e,
  );
  expect((error as PdfRenderError).reason).toBe("time");
});

test("the treasurer's queue shows a PDF's pages as a picture; a PDF stored before pictures is only a download, under the same policy", async () => {
  const member = await heldMember();
  expect((await postPdf(member.client, "banco.pdf", fixture("benign-chromium.pdf"))).status).toBe(
    302,
  );
  const queue = await treasurer.client.get("/tesoreria/pagos");
  expect(queue.text).toContain(`<img src="/pagos/${member.payment.id}/comprobante"`);

  const old = await heldMember();
  const name = `${"c".repeat(32)}.pdf`;
  fs.writeFileSync(path.join(server.config.privateDir, name), fixture("hostile-openaction-js.pdf"));
  await server.db
    .update(payments)
    .set({ receiptFile: name, status: "submitted", submittedAt: new Date() })
    .where(eq(payments.id, old.payment.id));
  const { response } = await served(old.payment.id);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  expect(response.headers.get("content-disposition")).toBe(
    `attachment; filename="comprobante-${old.payment.reference}.pdf"`,
  );
  expect(response.headers.get("content-security-policy")).toBe(RECEIPT_POLICY);
  const after = await treasurer.client.get("/tesoreria/pagos");
  expect(after.text).not.toContain(`<img src="/pagos/${old.payment.id}/comprobante"`);
  expect(after.text).toContain(`href="/pagos/${old.payment.id}/comprobante" download`);
});
