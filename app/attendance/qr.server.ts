// QR codes, made on the server: as an SVG for pages (a participant's check-in code, a certificate's
// link) and as a matrix of modules for drawing elsewhere (a PDF). One encoder for the whole site.
import QRCode from "qrcode";

/** The modules of `text`'s QR code, row by row: true where a module is dark. */
export function qrModules(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const rows: boolean[][] = [];
  for (let row = 0; row < modules.size; row++) {
    const line: boolean[] = [];
    for (let column = 0; column < modules.size; column++) line.push(modules.get(row, column) === 1);
    rows.push(line);
  }
  return rows;
}

/**
 * `text`'s QR code as an SVG element: one path, dark on white, with a quiet zone of four modules,
 * scaled by its container. `label` becomes its accessible name.
 */
export function qrSvg(text: string, label: string): string {
  const rows = qrModules(text);
  const quiet = 4;
  const size = rows.length + quiet * 2;
  let path = "";
  rows.forEach((line, row) => {
    line.forEach((dark, column) => {
      if (dark) path += `M${column + quiet} ${row + quiet}h1v1h-1z`;
    });
  });
  const title = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" ` +
    `aria-label="${title}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
  );
}
