// The import's report as lines of text: per collection what was found, imported, updated, left
// unchanged and skipped, then every refused document and field with its reason.
import { DIALECT_NAMES } from "./read-export.server";
import type { ImportProgress, ImportReport } from "./import.server";

export function formatReport(report: ImportReport): string[] {
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
  const skipped = report.issues.filter((i) => i.skipped);
  const notes = report.issues.filter((i) => !i.skipped);
  const line = (i: ImportReport["issues"][number]) =>
    `  - ${i.collection}/${i.documentId}${i.field ? ` · ${i.field}` : ""}: ${i.message}`;
  if (skipped.length > 0) {
    lines.push("", `Omitidos (${skipped.length}):`, ...skipped.map(line));
  }
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
