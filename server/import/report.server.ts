// The import's report as lines of text. On screen: per collection what was found, imported,
// updated, left unchanged and skipped, then each reason once with how many documents and values it
// applies to and a few of them. The full list, one line per document and value, goes to a file.
import { DIALECT_NAMES } from "./read-export.server";
import type { ImportProgress, ImportReport } from "./import.server";

type ReportIssue = ImportReport["issues"][number];

/** How many documents a grouped reason names on screen; the rest are in the full list. */
const EXAMPLES = 3;

function summary(report: ImportReport): string[] {
  const lines: string[] = [];
  lines.push(report.dryRun ? "Prueba (--dry-run): no se guardó nada." : "Importación terminada.");
  for (const { file, dialect } of report.files) lines.push(`  ${file}: ${DIALECT_NAMES[dialect]}`);
  lines.push("");
  const width = Math.max(10, ...[...report.collections.keys()].map((k) => k.length));
  lines.push(
    `${"Colección".padEnd(width)}  ${["encontrados", "importados", "actualizados", "sin cambios", "omitidos"].join("  ")}`,
  );
  for (const [name, c] of report.collections) {
    lines.push(
      `${name.padEnd(width)}  ${String(c.found).padStart(11)}  ${String(c.imported).padStart(10)}  ${String(c.updated).padStart(12)}  ${String(c.unchanged).padStart(11)}  ${String(c.skipped).padStart(8)}`,
    );
  }
  if (report.defaultEnds > 0) {
    lines.push(
      "",
      `Eventos con el fin por defecto (inicio + 2 horas; la exportación no tiene fin): ${report.defaultEnds}.`,
    );
  }
  return lines;
}

const where = (i: ReportIssue) => `${i.collection}/${i.documentId}`;
const withDetail = (text: string, i: ReportIssue) => (i.detail ? `${text} (${i.detail})` : text);

/** The same reason for the same field ("enlaces[0]" and "enlaces[3]" are one field). */
function groupKey(i: ReportIssue): string {
  return JSON.stringify([i.collection, i.field?.replace(/\[\d+\]/g, "[]") ?? "", i.message]);
}

function grouped(title: string, issues: ReportIssue[]): string[] {
  if (issues.length === 0) return [];
  const groups = new Map<string, ReportIssue[]>();
  for (const issue of issues) {
    const key = groupKey(issue);
    const group = groups.get(key);
    if (group) group.push(issue);
    else groups.set(key, [issue]);
  }
  const lines = ["", `${title} (${issues.length}, ${groups.size} motivo(s)):`];
  for (const group of [...groups.values()].sort((a, b) => b.length - a.length)) {
    const first = group[0]!;
    const field = first.field?.replace(/\[\d+\]/g, "[]");
    lines.push(
      `  - ${group.length} × ${first.collection}${field ? ` · ${field}` : ""}: ${first.message}`,
    );
    const shown = group.slice(0, EXAMPLES).map((i) => withDetail(where(i), i));
    const more = group.length > EXAMPLES ? `, y ${group.length - EXAMPLES} más` : "";
    lines.push(`      ${shown.join("; ")}${more}`);
  }
  return lines;
}

/** What the terminal shows: the summary, then each reason once. */
export function formatReport(report: ImportReport, fullReportFile?: string): string[] {
  const lines = summary(report);
  lines.push(
    ...grouped(
      "Omitidos",
      report.issues.filter((i) => i.skipped),
    ),
    ...grouped(
      "Valores que no se guardaron y avisos",
      report.issues.filter((i) => !i.skipped),
    ),
  );
  if (report.issues.length > 0) {
    lines.push(
      "",
      fullReportFile
        ? `La lista completa, documento por documento, está en ${fullReportFile}.`
        : "Para la lista completa, documento por documento: --report ARCHIVO.",
    );
  }
  return lines;
}

/** The summary, then every refused document and value on a line of its own. */
export function formatFullReport(report: ImportReport): string[] {
  const lines = summary(report);
  const line = (i: ReportIssue) =>
    `  - ${where(i)}${i.field ? ` · ${i.field}` : ""}: ${withDetail(i.message, i)}`;
  const skipped = report.issues.filter((i) => i.skipped);
  const notes = report.issues.filter((i) => !i.skipped);
  if (skipped.length > 0) lines.push("", `Omitidos (${skipped.length}):`, ...skipped.map(line));
  if (notes.length > 0) {
    lines.push("", `Valores que no se guardaron y avisos (${notes.length}):`, ...notes.map(line));
  }
  return lines;
}

/** One line of a progress bar, for a terminal only. */
export function progressLine(progress: ImportProgress, width = 30): string {
  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  const filled = Math.round(share * width);
  return `\r${progress.collection.padEnd(14)} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${progress.done}/${progress.total}`;
}
