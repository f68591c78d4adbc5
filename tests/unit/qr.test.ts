import { describe, expect, it } from "vitest";
import { qrModules, qrSvg } from "~/attendance/qr.server";

describe("QR codes", () => {
  it("encodes text as a square of modules with the three finder patterns", () => {
    const rows = qrModules("https://ayllu.example/certificados/ABCD-1234");
    const size = rows.length;
    expect(size).toBeGreaterThanOrEqual(21);
    expect(rows.every((line) => line.length === size)).toBe(true);
    // A finder pattern's corner module is dark, and the module just inside its ring is light.
    const corners: Array<[number, number]> = [
      [0, 0],
      [0, size - 7],
      [size - 7, 0],
    ];
    for (const [row, column] of corners) {
      expect(rows[row]?.[column]).toBe(true);
      expect(rows[row + 1]?.[column + 1]).toBe(false);
    }
  });

  it("differs for different text", () => {
    expect(qrModules("A1B2C3")).not.toEqual(qrModules("A1B2C4"));
  });

  it("makes an SVG with an escaped accessible name and a quiet zone", () => {
    const svg = qrSvg("abc", 'Código de "Ana" <García>');
    const size = qrModules("abc").length + 8;
    expect(svg).toContain(`viewBox="0 0 ${size} ${size}"`);
    expect(svg).toContain('aria-label="Código de &#34;Ana&#34; &#60;García&#62;"');
    expect(svg).not.toContain("<García>");
  });
});
