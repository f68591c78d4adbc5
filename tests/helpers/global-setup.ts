import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openEmbedded, openPostgres } from "~/db/client.server";
import { createPostgresDatabase, dropDatabase } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database folder, for tests to copy (see tests/helpers/database.ts). */
    embeddedTemplate: string;
    /** A migrated database on the PostgreSQL server, for tests to copy ("postgres" project only). */
    postgresTemplate: string;
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

/**
 * The same on the PostgreSQL server: one database migrated once, which each test file's database
 * is created from (`CREATE DATABASE … TEMPLATE`). Nobody may connect to it while it is copied.
 */
async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const { name, url } = await createPostgresDatabase(adminUrl, "ayllu_plantilla");
  const database = await openPostgres(url, { max: 1 });
  await database.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`alter database ${name} allow_connections false`);
  } finally {
    await admin.end();
  }
  return name;
}

export default async function setup(project: TestProject) {
  const database = project.config.env?.AYLLU_TEST_DATABASE;
  if (database !== "embedded" && database !== "postgres") {
    await ensureBuild();
    return;
  }
  // Made on PostgreSQL runs too: the command-line and process tests always use a data folder.
  const [, template] = await Promise.all([ensureBuild(), createEmbeddedTemplate()]);
  project.provide("embeddedTemplate", template);
  const adminUrl = process.env.TEST_DATABASE_URL;
  const postgresTemplate =
    database === "postgres" && adminUrl ? await createPostgresTemplate(adminUrl) : null;
  project.provide("postgresTemplate", postgresTemplate ?? "");
  return async () => {
    fs.rmSync(template, { recursive: true, force: true });
    if (postgresTemplate && adminUrl) await dropDatabase(adminUrl, postgresTemplate);
  };
}
