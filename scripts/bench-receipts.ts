// npm run bench:receipts — what drawing a PDF receipt costs (decision 061): the time to turn a 1-
// and a 4-page PDF into the stored JPEG, the peak memory of the server and of what it starts
// (sampled every 5 ms from /proc), and what the server keeps after ten receipts. Both ways of
// isolating PDFium are measured: a child process per PDF (what the server uses) and a worker
// thread per PDF, ended after it.
import { readFileSync } from "node:fs";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { renderPdfPages } from "../app/payments/pdf-pages.server";
import { processReceipt } from "../app/payments/receipts.server";

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const MB = 1024 * 1024;

async function receiptPdf(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 36 });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on("end", resolve));
  const photo = await sharp({
    create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 180, b: 150 } },
  })
    .jpeg()
    .toBuffer();
  for (let i = 0; i < pages; i++) {
    if (i > 0) doc.addPage();
    doc.font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").fontSize(12);
    doc.text(`Extracto, página ${i + 1}. `.repeat(120));
    doc.image(photo, { width: 400 });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** Resident memory of this process and of its children, in bytes. */
function treeRss(): number {
  const rss = (pid: string) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  let total = process.memoryUsage.rss();
  try {
    const children = readFileSync(`/proc/self/task/${process.pid}/children`, "utf8").trim();
    for (const pid of children ? children.split(/\s+/) : []) total += rss(pid);
  } catch {
    // No /proc: only this process is counted.
  }
  return total;
}

async function measure(label: string, what: string, work: () => Promise<unknown>) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage.rss();
  let peak = treeRss();
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss())), 5);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  clearInterval(sampler);
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = process.memoryUsage.rss();
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(8)} ${what.padEnd(34)} first ${times[0]!.toFixed(0).padStart(5)} ms` +
      `  median ${times[Math.floor(ROUNDS / 2)]!.toFixed(0).padStart(5)} ms` +
      `  peak +${((peak - before) / MB).toFixed(0).padStart(4)} MB` +
      `  kept after ${ROUNDS} +${((after - before) / MB).toFixed(0).padStart(4)} MB`,
  );
}

const one = await receiptPdf(1);
const four = await receiptPdf(4);
console.log(
  `PDF receipts drawn to JPEG, ${ROUNDS} rounds each (1 page: ${(one.length / 1024).toFixed(0)} KB, 4 pages: ${(four.length / 1024).toFixed(0)} KB)`,
);
console.log(
  "peak: this process and its children above its memory at the start; kept: this process",
);
const limits = { maxBytes: 20 * MB, maxPixels: 40_000_000 };
for (const [label, pdf] of [
  ["1 page", one],
  ["4 pages", four],
] as const) {
  await measure(label, "drawn, child process per PDF", () => renderPdfPages(pdf, "process"));
  await measure(label, "drawn, worker per PDF", () => renderPdfPages(pdf, "worker"));
  await measure(label, "drawn + JPEG (processReceipt)", () =>
    processReceipt(
      { filename: "x.pdf", data: pdf } as Parameters<typeof processReceipt>[0],
      limits,
    ),
  );
}
