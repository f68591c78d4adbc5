// The project's own source files, for tests that read the code itself (the layout, the errors).
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "~/kernel/paths.server";

const CODE = /\.(ts|tsx|js|mjs)$/;

/** Every code file under `dir` (a path from the project root), as paths from the project root. */
export function sourceFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFilesUnder(file));
    else if (CODE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(file);
  }
  return out;
}

/** The text of a file given by its path from the project root. */
export function readSource(file: string): string {
  return fs.readFileSync(path.join(PROJECT_ROOT, file), "utf8");
}
