// Three reporters of the Vitest run (vitest.config.ts), beside the default one:
// - FileTimings writes how long each file took on each database to tests/timings.json, which the
//   next run reads to start the longest files first (no hand-kept list of slow files).
// - EveryTestOnADatabase fails a run on both databases in which a test ran on neither: a test is
//   skipped only on the database it is not about (testOnlyOn in tests/helpers/database.ts).
// - FailuresFile writes what failed (each test with its first error lines, each file that could not
//   run, each error outside a test) to the file AYLLU_FAILURES_FILE names: `npm test` prints it
//   again at its very end, where a log's last lines show it, after the browser tests' output.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Reporter, SerializedError, TestModule, TestRunEndReason, Vitest } from "vitest/node";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const TIMINGS_FILE = path.join(ROOT, "tests", "timings.json");

/** A file's key in tests/timings.json: its project and its path from the project's root. */
export function timingKey(project: string, moduleId: string): string {
  return `${project}:${path.relative(ROOT, moduleId)}`;
}

/** Seconds per file and project, as the last run that ran the file measured them. */
export function readTimings(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(TIMINGS_FILE, "utf8"));
    return parsed && typeof parsed === "object" ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export class FileTimings implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason) {
    if (reason === "interrupted") return;
    const timings = readTimings();
    for (const module of modules) {
      const { duration } = module.diagnostic();
      timings[timingKey(module.project.name, module.moduleId)] = Math.round(duration / 100) / 10;
    }
    // Files that were renamed or removed leave the list.
    const kept = Object.entries(timings)
      .filter(([key]) => fs.existsSync(path.join(ROOT, key.slice(key.indexOf(":") + 1))))
      .sort(([a], [b]) => a.localeCompare(b));
    fs.writeFileSync(TIMINGS_FILE, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
  }
}

export class EveryTestOnADatabase implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest) {
    // With -t, the tests left out are skipped on both databases by the filter, not by a rule.
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason) {
    if (reason === "interrupted" || this.filtered) return;
    const ran = new Set<string>();
    const skipped = new Set<string>();
    const projects = new Set<string>();
    for (const module of modules) {
      if (module.project.name !== "embedded" && module.project.name !== "postgres") continue;
      projects.add(module.project.name);
      const file = path.relative(ROOT, module.moduleId);
      for (const test of module.children.allTests()) {
        const key = `${file} > ${test.fullName}`;
        const state = test.result().state;
        if (state === "skipped") skipped.add(key);
        else if (state === "passed" || state === "failed") ran.add(key);
      }
    }
    const onNeither = [...skipped].filter((key) => !ran.has(key));
    if (onNeither.length === 0) return;
    if (projects.size === 2) {
      console.error(
        `\n${onNeither.length} prueba(s) no corrieron en ninguna de las dos bases de datos:\n` +
          onNeither.map((key) => `  ${key}`).join("\n"),
      );
      process.exitCode = 1;
    } else {
      const only = [...projects][0];
      console.log(
        `\n${onNeither.length} prueba(s) son de la otra base de datos y no corrieron en "${only}"` +
          (only === "embedded" ? "; con TEST_DATABASE_URL corren también en PostgreSQL." : "."),
      );
    }
  }
}

/** The first lines of an error: its message and where it was thrown. */
function firstLines(error: { message?: string; stack?: string } | undefined, lines = 6): string {
  const text = error?.stack || error?.message || String(error);
  return text
    .split("\n")
    .slice(0, lines)
    .map((line) => `      ${line}`)
    .join("\n");
}

export class FailuresFile implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ) {
    const file = process.env.AYLLU_FAILURES_FILE;
    if (!file) return;
    const found: string[] = [];
    for (const module of modules) {
      const where = `[${module.project.name}] ${path.relative(ROOT, module.moduleId)}`;
      for (const error of module.errors()) found.push(`  ${where}\n${firstLines(error)}`);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== "failed") continue;
        found.push(`  ${where} > ${test.fullName}\n${firstLines(result.errors?.[0])}`);
      }
    }
    for (const error of errors) found.push(`  (fuera de una prueba)\n${firstLines(error)}`);
    if (reason === "interrupted") found.push("  (la ejecución fue interrumpida)");
    fs.writeFileSync(file, found.join("\n"));
  }
}
