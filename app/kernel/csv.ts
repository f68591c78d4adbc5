// CSV for spreadsheet programs (RFC 4180): every cell quoted, quotes doubled, CRLF between rows,
// and a byte-order mark so that accents are read as UTF-8. A cell that a spreadsheet would take
// for a formula (= + - @, or a tab or carriage return first) starts with an apostrophe instead.
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
