import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openEmbedded } from "~/db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database folder, for tests to copy (see tests/helpers/database.ts). */
    embeddedTemplate: string;
  }
}

// HTTP-level tests import build/server/index.js: make sure it is the build of these sources.
function ensureBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error("La construcción del sitio falló")),
    );
  });
}

/**
 * Creating an embedded cluster (initdb) costs seconds of CPU; copying a migrated one costs a
 * fraction of that. The template is made by the server's own openEmbedded, migrations included.
 */
async function createEmbeddedTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-plantilla-"));
  const database = await openEmbedded(dir);
  await database.close();
  return dir;
}

export default async function setup(project: TestProject) {
  // Made on PostgreSQL runs too: the command-line and process tests always use a data folder.
  const [, template] = await Promise.all([ensureBuild(), createEmbeddedTemplate()]);
  project.provide("embeddedTemplate", template);
  return () => fs.rmSync(template, { recursive: true, force: true });
}
