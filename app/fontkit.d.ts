// The little of fontkit (a dependency of pdfkit, which ships no types) that the link-preview
// cards use: a font's glyphs laid out, each with its outline as SVG path data in font units.
declare module "fontkit" {
  export interface Glyph {
    path: { toSVG(): string };
  }
  export interface GlyphPosition {
    xAdvance: number;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: GlyphPosition[];
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    layout(text: string): GlyphRun;
  }
  export function create(buffer: Buffer): Font;
}
