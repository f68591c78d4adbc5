// The picture a link preview shows (WhatsApp, Telegram, Facebook…) for every page: a card of
// 1200 × 630 in the site's colours with what the page is about, drawn on the server
// (docs/decisions/046-link-previews.md). The text is set as outlines from the site's own font, so
// the card looks the same on a machine without any fonts; sharp turns the drawing into a JPEG.
// An item with a picture of its own on this site (uploaded, or one of the demo's) shows it behind
// the text; a picture on another site is never fetched.
import fs from "node:fs";
import path from "node:path";
import * as fontkit from "fontkit";
import sharp, { type Sharp } from "sharp";
import { fontFile, runsOf, token, type Subset, type Weight } from "~/kernel/brand.server";
import { CLIENT_BUILD_DIR, PROJECT_ROOT } from "~/kernel/paths.server";
import { site } from "~/site/copy/site";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const MARGIN = 80;
const TEXT_WIDTH = CARD_WIDTH - 2 * MARGIN;

export interface CardContent {
  /** What the item is, in capitals above the title ('EVENTO', 'NOTA'…). */
  kicker: string;
  title: string;
  /** Up to two short lines under the title: a date, a place. */
  lines: string[];
  /** The item's own picture, already read from this site's files. */
  photo?: Buffer | null;
}

const fonts = new Map<string, fontkit.Font>();

function fontOf(subset: Subset, weight: Weight): fontkit.Font {
  const { name, data } = fontFile(subset, weight);
  let font = fonts.get(name);
  if (!font) {
    font = fontkit.create(data);
    fonts.set(name, font);
  }
  return font;
}

/** The width of `text` at `size` px. */
function widthOf(text: string, weight: Weight, size: number): number {
  return runsOf(text).reduce((sum, run) => {
    const font = fontOf(run.subset, weight);
    return sum + (font.layout(run.text).advanceWidth * size) / font.unitsPerEm;
  }, 0);
}

/** One line of text as SVG outlines, its baseline at (x, y). */
function outline(text: string, weight: Weight, size: number, x: number, y: number): string {
  const parts: string[] = [];
  let pen = x;
  for (const run of runsOf(text)) {
    const font = fontOf(run.subset, weight);
    const scale = size / font.unitsPerEm;
    const laid = font.layout(run.text);
    laid.glyphs.forEach((glyph, i) => {
      const d = glyph.path.toSVG();
      if (d) {
        parts.push(
          `<path transform="translate(${pen.toFixed(1)} ${y.toFixed(1)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${d}"/>`,
        );
      }
      pen += laid.positions[i]!.xAdvance * scale;
    });
  }
  return parts.join("");
}

/**
 * `text` in lines of at most `width` px, at most `max` of them; the last one ends in '…' when the
 * text does not fit. A word longer than a line is cut.
 */
export function wrap(text: string, weight: Weight, size: number, width: number, max: number) {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    const next = current ? `${current} ${word}` : word;
    if (widthOf(next, weight, size) <= width) {
      current = next;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (widthOf(current, weight, size) > width && current.length > 1) {
      let cut = current.length - 1;
      while (cut > 1 && widthOf(current.slice(0, cut), weight, size) > width) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  if (current) lines.push(current);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = `${kept[max - 1]}…`;
  while (widthOf(last, weight, size) > width && last.length > 1) last = `${last.slice(0, -2)}…`;
  kept[max - 1] = last;
  return kept;
}

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const colours = {
  bg: token("color-bg")[0]!,
  text: token("color-text")[0]!,
  muted: token("color-text-muted")[0]!,
  accent: token("color-accent")[0]!,
  brand: token("gradient-brand"),
  bar: token("gradient-bar"),
};

let logo: Buffer | null = null;

/**
 * The logo, read once on first use: from the client build (all a production image carries), or
 * from the sources under Vite.
 */
function logoFile(): Buffer {
  if (logo) return logo;
  for (const dir of [CLIENT_BUILD_DIR, path.join(PROJECT_ROOT, "public")]) {
    try {
      logo = fs.readFileSync(path.join(dir, "icons", "logo-96.png"));
      return logo;
    } catch {
      // Not in this folder: the next one.
    }
  }
  throw new Error("No se encontró icons/logo-96.png en build/client ni en public");
}

/** The drawing of the card over its background (the photo, or the brand's gradient). */
function drawing(content: CardContent, withPhoto: boolean): string {
  const titleSize = content.title.length > 60 ? 56 : 68;
  const title = wrap(content.title, 700, titleSize, TEXT_WIDTH, 3);
  const lines = content.lines
    .filter(Boolean)
    .slice(0, 2)
    .map((l) => wrap(l, 500, 32, TEXT_WIDTH, 1)[0]!);
  // From the bottom up: the lines, the title, the kicker.
  const lineGap = 44;
  const titleGap = Math.round(titleSize * 1.12);
  let y = CARD_HEIGHT - 70 - (lines.length - 1) * lineGap;
  const lineParts = lines.map((l, i) => outline(l, 500, 32, MARGIN, y + i * lineGap));
  y -= lines.length ? 64 : 0;
  const titleTop = y - (title.length - 1) * titleGap;
  const titleParts = title.map((l, i) =>
    outline(l, 700, titleSize, MARGIN, titleTop + i * titleGap),
  );
  const kickerY = titleTop - titleSize - 18;
  const shade = withPhoto
    ? `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#shade)"/>`
    : `<circle cx="1040" cy="120" r="170" fill="none" stroke="${colours.accent}" stroke-opacity=".18" stroke-width="6"/><circle cx="1040" cy="120" r="90" fill="none" stroke="${colours.accent}" stroke-opacity=".12" stroke-width="6"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">
<defs>
<linearGradient id="brand" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colours.bg}"/><stop offset=".55" stop-color="${colours.brand[0]}"/><stop offset="1" stop-color="${colours.brand[1] ?? colours.brand[0]}"/></linearGradient>
<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${colours.bg}" stop-opacity=".15"/><stop offset=".45" stop-color="${colours.bg}" stop-opacity=".55"/><stop offset="1" stop-color="${colours.bg}" stop-opacity=".94"/></linearGradient>
<linearGradient id="bar" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${colours.bar[0]}"/><stop offset="1" stop-color="${colours.bar[1] ?? colours.bar[0]}"/></linearGradient>
</defs>
${withPhoto ? "" : `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#brand)"/>`}
${shade}
<rect width="${CARD_WIDTH}" height="12" fill="url(#bar)"/>
<g fill="${colours.text}">${outline(site.name, 700, 34, MARGIN + 64, 92)}</g>
<g fill="${colours.accent}">${outline(content.kicker.toUpperCase(), 500, 26, MARGIN, kickerY)}</g>
<g fill="${colours.text}">${titleParts.join("")}</g>
<g fill="${colours.muted}">${lineParts.join("")}</g>
<title>${xml(content.title)}</title>
</svg>`;
}

/** The card as a JPEG of 1200 × 630 (a few tens of kilobytes; at most 300 KB with a photo). */
export async function renderCard(content: CardContent): Promise<Buffer> {
  let base: Sharp;
  let withPhoto = false;
  if (content.photo) {
    try {
      const photo = await sharp(content.photo, { limitInputPixels: 40_000_000 })
        .resize(CARD_WIDTH, CARD_HEIGHT, { fit: "cover" })
        .flatten({ background: colours.bg })
        .toBuffer();
      base = sharp(photo);
      withPhoto = true;
    } catch {
      base = sharp({
        create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: colours.bg },
      });
    }
  } else {
    base = sharp({
      create: { width: CARD_WIDTH, height: CARD_HEIGHT, channels: 3, background: colours.bg },
    });
  }
  const mark = await sharp(logoFile()).resize(48, 48).toBuffer();
  return base
    .composite([
      { input: Buffer.from(drawing(content, withPhoto)), top: 0, left: 0 },
      { input: mark, top: 56, left: MARGIN },
    ])
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
