// The certificate of attendance as a PDF: A4 landscape, the site's colours and typeface, a QR code
// to its public page (docs/decisions/020-certificates.md).
import PDFDocument from "pdfkit";
import {
  fontFile,
  runsOf,
  SUBSETS,
  token,
  WEIGHTS,
  type Subset,
  type Weight,
} from "~/kernel/brand.server";
import { site } from "~/site/copy/site";
import { eventPlace } from "~/events/event-place";
import { formatDateRange } from "~/kernel/time";
import {
  attendanceLine,
  type Certificate,
  certificateUrl,
  formatCertificateCode,
} from "./certificate.server";
import { qrModules } from "./qr.server";

// ---------------------------------------------------------------------------------------------
// Type and colours: the site's own (app/kernel/brand.server.ts). pdfkit knows each part of the font
// by the name it is registered under.

function fontName(subset: Subset, weight: Weight): string {
  return fontFile(subset, weight).name;
}

const colours = {
  ink: token("color-bg")[0]!,
  muted: token("color-border-strong")[0]!,
  brand: token("gradient-brand") as [string, string, ...string[]],
  bar: token("gradient-bar") as [string, string, ...string[]],
};

// ---------------------------------------------------------------------------------------------
// Setting text: centred lines that shrink to fit, in as many lines as they need.

type Doc = PDFKit.PDFDocument;

interface Style {
  weight: Weight;
  size: number;
  /** The smallest size before the text takes more lines. */
  minSize: number;
  /** The lines to try to fit the text in before going below `minSize`. */
  maxLines: number;
  color: string;
  spacing?: number;
}

function widthOf(doc: Doc, text: string, weight: Weight, size: number, spacing = 0): number {
  return runsOf(text).reduce(
    (sum, run) =>
      sum +
      doc
        .font(fontName(run.subset, weight))
        .fontSize(size)
        .widthOfString(run.text, { characterSpacing: spacing }),
    0,
  );
}

/** `text` broken into lines no wider than `width` at `size`; a word too long is cut. */
function wrap(doc: Doc, text: string, style: Style, size: number, width: number): string[] {
  const fits = (line: string) => widthOf(doc, line, style.weight, size, style.spacing) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const tried = line ? `${line} ${word}` : word;
    if (fits(tried)) {
      line = tried;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

interface Block {
  lines: string[];
  size: number;
  style: Style;
}

function setText(doc: Doc, text: string, style: Style, width: number): Block {
  for (let size = style.size; size >= style.minSize; size -= 1) {
    const lines = wrap(doc, text, style, size, width);
    if (lines.length <= style.maxLines) return { lines, size, style };
  }
  return { lines: wrap(doc, text, style, style.minSize, width), size: style.minSize, style };
}

const lineHeight = (block: Block) => block.size * 1.22;
const heightOf = (block: Block) => block.lines.length * lineHeight(block);

/** `text` in `weight` and `size` from (`x`, `y`), each run in the part of the font it needs. */
function drawRuns(
  doc: Doc,
  text: string,
  font: { weight: Weight; size: number; color: string; spacing?: number },
  x: number,
  y: number,
): void {
  const spacing = font.spacing ?? 0;
  // Spaced capitals come out of text extraction letter by letter: readers get the word itself.
  if (spacing > 0) doc.markContent("Span", { actual: text });
  for (const run of runsOf(text)) {
    doc
      .font(fontName(run.subset, font.weight))
      .fontSize(font.size)
      .fillColor(font.color)
      .text(run.text, x, y, { lineBreak: false, characterSpacing: spacing });
    x += doc.widthOfString(run.text, { characterSpacing: spacing });
  }
  if (spacing > 0) doc.endMarkedContent();
}

function drawLine(doc: Doc, line: string, block: Block, centre: number, y: number): void {
  const font = { ...block.style, size: block.size };
  drawRuns(
    doc,
    line,
    font,
    centre - widthOf(doc, line, font.weight, font.size, font.spacing) / 2,
    y,
  );
}

function drawBlock(doc: Doc, block: Block, centre: number, top: number): number {
  block.lines.forEach((line, i) => drawLine(doc, line, block, centre, top + i * lineHeight(block)));
  return top + heightOf(block);
}

function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const modules = qrModules(text);
  const quiet = 2;
  const cell = size / (modules.length + quiet * 2);
  doc.rect(x, y, size, size).fill("white");
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
    }),
  );
  doc.fill(colours.ink);
}

// ---------------------------------------------------------------------------------------------

/** The heading and the sentence between the member's name and the event's. */
function wordingOf(certificate: Certificate): { heading: string; statement: string } {
  const { award } = certificate;
  // A competition's certificate by place (decision 060) says what the member won, and with whom.
  const heading = !award
    ? "Certificado de asistencia"
    : award.place === null || award.place > 3
      ? "Certificado de participación"
      : `Certificado: ${award.label}`;
  const statement = !award
    ? "asistió a"
    : `${award.place === null || award.place > 3 ? "participó" : `obtuvo el ${award.label}`} en la categoría «${award.category}», con el equipo «${award.team}», de`;
  return { heading, statement };
}

function newDocument(certificate: Certificate): Doc {
  const { heading, statement } = wordingOf(certificate);
  const { event } = certificate;
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 0,
    lang: "es-BO",
    displayTitle: true,
    info: {
      Title: `${heading}: ${event.nombreEvento}`,
      Author: site.name,
      Subject: `${certificate.nombre} ${statement} ${event.nombreEvento}`,
      Keywords: `certificado ${formatCertificateCode(certificate.code)}`,
      Creator: site.name,
    },
  });
  // Registered by name; only the parts a certificate sets text in are embedded.
  for (const subset of SUBSETS) {
    for (const weight of WEIGHTS) {
      const name = fontName(subset, weight);
      doc.registerFont(name, fontFile(subset, weight).data);
    }
  }
  return doc;
}

const TEXT_MARGIN = 110;
const RULE_HEIGHT = 3;
/** The statement's area: below the community's name, above the footer and its QR code. */
const AREA_TOP = 130;
const AREA_BOTTOM_GAP = 150;

interface StatementLayout {
  blocks: Array<Block | number>;
  /** Where the first block starts, and the height of them all. */
  top: number;
  height: number;
  /** 1, or less when long names made everything smaller to fit the area. */
  scale: number;
}

/**
 * The statement, centred in the space between the heading and the footer. Long names (a
 * member's, an event's, a category's and team's) first take smaller type within each block; if
 * together they still do not fit above the footer and its QR code, everything is set smaller.
 */
function layoutStatement(
  doc: Doc,
  certificate: Certificate,
  settings: { timeZone: string },
): StatementLayout {
  const { event } = certificate;
  const { heading, statement } = wordingOf(certificate);
  const textWidth = doc.page.width - 2 * TEXT_MARGIN;
  const sessionsLine = attendanceLine(certificate.attendance);
  const statementAt = (scale: number): Array<Block | number> => {
    const set = (text: string, style: Style) =>
      setText(
        doc,
        text,
        { ...style, size: style.size * scale, minSize: style.minSize * scale },
        textWidth,
      );
    return [
      set(heading.toUpperCase(), {
        weight: 500,
        size: 15,
        minSize: 12,
        maxLines: 1,
        color: colours.brand[1],
        spacing: 2,
      }),
      22 * scale,
      set("Se certifica que", {
        weight: 300,
        size: 14,
        minSize: 14,
        maxLines: 1,
        color: colours.muted,
      }),
      10 * scale,
      set(certificate.nombre, {
        weight: 700,
        size: 38,
        minSize: 22,
        maxLines: 2,
        color: colours.ink,
      }),
      12 * scale,
      -1, // the gradient rule
      16 * scale,
      set(statement, { weight: 300, size: 14, minSize: 10, maxLines: 3, color: colours.muted }),
      8 * scale,
      set(event.nombreEvento, {
        weight: 500,
        size: 25,
        minSize: 14,
        maxLines: 3,
        color: colours.brand[0],
      }),
      12 * scale,
      set(
        `${formatDateRange(event.startsAt, event.endsAt, settings.timeZone)} · ${eventPlace(event)}`,
        {
          weight: 300,
          size: 14,
          minSize: 10,
          maxLines: 2,
          color: colours.ink,
        },
      ),
      // A course of several sessions: how many, and their hours (decision 044).
      ...(sessionsLine
        ? [
            6 * scale,
            set(sessionsLine, {
              weight: 500,
              size: 13,
              minSize: 10,
              maxLines: 1,
              color: colours.ink,
            }),
          ]
        : []),
    ];
  };
  const heightOfAll = (blocks: Array<Block | number>) =>
    blocks.reduce<number>(
      (sum, b) => sum + (typeof b === "number" ? (b === -1 ? RULE_HEIGHT : b) : heightOf(b)),
      0,
    );
  const room = doc.page.height - AREA_BOTTOM_GAP - AREA_TOP;
  let scale = 1;
  let blocks = statementAt(scale);
  while (heightOfAll(blocks) > room && scale > 0.6) {
    scale = Math.round((scale - 0.05) * 100) / 100;
    blocks = statementAt(scale);
  }
  const height = heightOfAll(blocks);
  return { blocks, top: AREA_TOP + Math.max(0, (room - height) / 2), height, scale };
}

/** Where the statement falls on the page, for the tests: never below `limit`. */
export function statementLayoutOf(
  certificate: Certificate,
  settings: { timeZone: string },
): { top: number; bottom: number; limit: number; scale: number } {
  const doc = newDocument(certificate);
  const layout = layoutStatement(doc, certificate, settings);
  return {
    top: layout.top,
    bottom: layout.top + layout.height,
    limit: doc.page.height - AREA_BOTTOM_GAP,
    scale: layout.scale,
  };
}

/** The certificate as a PDF file. */
export function certificatePdf(
  certificate: Certificate,
  settings: { publicUrl: URL; timeZone: string },
): Promise<Buffer> {
  const verifyAt = certificateUrl(settings.publicUrl, certificate.code);
  const doc = newDocument(certificate);
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const W = doc.page.width;
  const H = doc.page.height;
  const centre = W / 2;
  const textWidth = W - 2 * TEXT_MARGIN;

  // The frame: the site's bar above and below, a fine rule in the brand's blue inside.
  const bar = doc.linearGradient(0, 0, W, 0);
  bar.stop(0, colours.bar[0]).stop(1, colours.bar[1]);
  doc.rect(0, 0, W, 14).fill(bar);
  const barBottom = doc.linearGradient(0, 0, W, 0);
  barBottom.stop(0, colours.bar[0]).stop(1, colours.bar[1]);
  doc.rect(0, H - 6, W, 6).fill(barBottom);
  doc
    .lineWidth(0.8)
    .strokeColor(colours.brand[0])
    .strokeOpacity(0.35)
    .rect(28, 36, W - 56, H - 64)
    .stroke()
    .strokeOpacity(1);

  // The community, above.
  const brandName: Block = setText(
    doc,
    site.name.toUpperCase(),
    { weight: 700, size: 18, minSize: 18, maxLines: 1, color: colours.brand[0], spacing: 3 },
    textWidth,
  );
  drawBlock(doc, brandName, centre, 64);

  const layout = layoutStatement(doc, certificate, settings);
  let y = layout.top;
  for (const b of layout.blocks) {
    if (b === -1) {
      const rule = doc.linearGradient(centre - 90, 0, centre + 90, 0);
      rule.stop(0, colours.bar[0]).stop(1, colours.bar[1]);
      doc.roundedRect(centre - 90, y, 180, RULE_HEIGHT, 1.5).fill(rule);
      y += RULE_HEIGHT;
    } else if (typeof b === "number") y += b;
    else y = drawBlock(doc, b, centre, y);
  }

  // Below: who gives it on the left, how to check it on the right.
  const qrSize = 84;
  const qrX = W - 64 - qrSize;
  const qrY = H - 64 - qrSize;
  drawQr(doc, verifyAt, qrX, qrY, qrSize);
  // A signature line for the community, as on a certificate signed by hand.
  const footTop = qrY + qrSize - 40;
  const footLeft = 64;
  doc
    .lineWidth(0.8)
    .strokeColor(colours.muted)
    .moveTo(footLeft, footTop - 10)
    .lineTo(footLeft + 230, footTop - 10)
    .stroke();
  drawRuns(
    doc,
    `Comunidad ${site.name}`,
    { weight: 500, size: 13, color: colours.ink },
    footLeft,
    footTop,
  );
  const taglineStyle = {
    weight: 300,
    size: 9,
    minSize: 9,
    maxLines: 2,
    color: colours.muted,
  } as const;
  wrap(doc, site.tagline, taglineStyle, 9, 300).forEach((line, i) =>
    drawRuns(doc, line, taglineStyle, footLeft, footTop + 19 + i * 11),
  );

  const rightEdge = qrX - 16;
  const right = (
    text: string,
    font: { weight: Weight; size: number; color: string },
    top: number,
  ) => drawRuns(doc, text, font, rightEdge - widthOf(doc, text, font.weight, font.size), top);
  right(
    "Verifica este certificado en",
    { weight: 300, size: 9, color: colours.muted },
    footTop - 4,
  );
  right(
    verifyAt.replace(/^https?:\/\//, ""),
    { weight: 300, size: 9, color: colours.ink },
    footTop + 8,
  );
  right("Código", { weight: 300, size: 9, color: colours.muted }, footTop + 26);
  right(
    formatCertificateCode(certificate.code),
    { weight: 700, size: 14, color: colours.ink },
    footTop + 37,
  );

  doc.end();
  return done;
}
