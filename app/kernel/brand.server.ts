// The site's face and colours for what the server draws itself: the certificate PDF and the cards
// that link previews show (docs/decisions/046-link-previews.md). Space Grotesk comes from its npm
// package (SIL Open Font License), split by script; every run of text is set in the part that has
// its letters, so names beyond Spanish's alphabet print too. The colours are read from the
// stylesheet's tokens, so that changing the palette stays one file.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT } from "~/kernel/paths.server";

export const SUBSETS = ["latin", "latin-ext", "vietnamese"] as const;
export type Subset = (typeof SUBSETS)[number];
export const WEIGHTS = [300, 500, 700] as const;
export type Weight = (typeof WEIGHTS)[number];

const require = createRequire(import.meta.url);
const fontPackage = "@fontsource/space-grotesk";

function ranges(list: string): Array<[number, number]> {
  return list.split(",").map((part) => {
    const [from, to] = part.trim().replace(/^U\+/, "").split("-");
    return [parseInt(from!, 16), parseInt(to ?? from!, 16)];
  });
}

const unicode = JSON.parse(
  fs.readFileSync(require.resolve(`${fontPackage}/unicode.json`), "utf8"),
) as Record<Subset, string>;
const coverage = SUBSETS.map((subset) => ({ subset, ranges: ranges(unicode[subset]) }));

const fontFiles = new Map<string, Buffer>();

/**
 * The WOFF file of one part and weight (fontkit cannot subset the WOFF2 ones: their glyph table is
 * transformed, foliojs/fontkit#201), read once.
 */
export function fontFile(subset: Subset, weight: Weight): { name: string; data: Buffer } {
  const name = `space-grotesk-${subset}-${weight}`;
  let data = fontFiles.get(name);
  if (!data) {
    data = fs.readFileSync(require.resolve(`${fontPackage}/files/${name}-normal.woff`));
    fontFiles.set(name, data);
  }
  return { name, data };
}

function subsetOf(codePoint: number): Subset | null {
  return (
    coverage.find(({ ranges }) => ranges.some(([a, b]) => codePoint >= a && codePoint <= b))
      ?.subset ?? null
  );
}

export interface Run {
  subset: Subset;
  text: string;
}

/** `text` cut where the part of the font that has its letters changes. */
export function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (const char of text) {
    const found = subsetOf(char.codePointAt(0)!);
    const last = runs.at(-1);
    // Spaces and marks every part has stay with the run they are in.
    const subset = found === "latin" && last && /[\s\p{M}]/u.test(char) ? last.subset : found;
    if (last && (subset === null || last.subset === subset)) last.text += char;
    else runs.push({ subset: subset ?? "latin", text: char });
  }
  return runs;
}

const tokens = fs.readFileSync(path.join(PROJECT_ROOT, "app", "styles", "tokens.css"), "utf8");

/** The colours (#rrggbb) a token of app/styles/tokens.css holds, in order. */
export function token(name: string): string[] {
  const value = new RegExp(`--${name}:\\s*([^;]+);`).exec(tokens)?.[1] ?? "";
  const colours = value.match(/#[0-9a-f]{6}\b/gi);
  if (!colours) throw new Error(`tokens.css no define --${name} con colores`);
  return colours;
}
