import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { copyEmbeddedTemplate } from "../helpers/database";
import { asc } from "drizzle-orm";
import { openEmbedded } from "~/db/client.server";
import { auditLog } from "~/db/schema.server";
import { fixture, FIXTURE_FILES } from "../helpers/firebase";

// Each run starts tsx and opens an embedded database: seconds, not milliseconds. The commands'
// work is tested in-process (import.test.ts, backup.test.ts); these prove that the scripts as a
// person runs them exit with the right code and print the right lines.
const TIMEOUT_MS = 180_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `npm run <script> -- <args>` (tsx starts it, as the npm script does), on the embedded database in `dataDir`. */
function run(script: string, args: string[], dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const tsx = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsx");
    const child = spawn(tsx, [`scripts/${script}.ts`, ...args], {
      cwd: PROJECT_ROOT,
      env,
      timeout: TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

test(
  "npm run import stops on invalid JSON with a Spanish message naming the file, no stack and exit 1",
  async () => {
    const dataDir = path.join(dir, "invalido");
    const result = await run("import", [FIXTURE_FILES[0]!, fixture("invalid.json")], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Error: ${fixture("invalid.json")}: no es JSON válido (línea 1, columna 47). No se importó nada.`,
    );
    noStack(result.stderr);
    expect(fs.existsSync(dataDir)).toBe(false);
  },
  TIMEOUT_MS,
);

test(
  "npm run restore of a missing file says so in Spanish, exits 1 and creates no data folder",
  async () => {
    const target = path.join(dir, "sin-copia");
    const missing = path.join(dir, "no-existe.gz");
    const result = await run("restore", [missing], target);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`Error: No se pudo leer ${missing}: el archivo no existe.`);
    noStack(result.stderr);
    expect(fs.existsSync(target)).toBe(false);
  },
  TIMEOUT_MS,
);

test(
  "npm run import, backup and restore move a community into a new data folder",
  async () => {
    // Imported into the data folder a server's earlier run left (initdb is paid by the restore).
    const source = copyEmbeddedTemplate(path.join(dir, "origen"));
    const fullReport = path.join(dir, "informe.txt");
    const imported = await run("import", ["--report", fullReport, ...FIXTURE_FILES], source);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/usuarios\s+7\s+6\s+0\s+0\s+1/);
    // On screen each reason once, with its count; every document and value in the file.
    expect(imported.stdout).toContain(
      "  - 2 × participations · events[]: el evento no existe (o no se importó)",
    );
    expect(imported.stdout).toContain(
      `La lista completa, documento por documento, está en ${fullReport}.`,
    );
    expect(fs.readFileSync(fullReport, "utf8")).toContain(
      "participations/uGoogleAna · events[1]: el evento no existe (o no se importó) (evento evBorrado)",
    );
    // Not a terminal: no progress bar.
    expect(imported.stdout).not.toContain("\r");

    const file = path.join(dir, "copia.ayllu.gz");
    const backup = await run("backup", [file], source);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Copia de seguridad escrita en ${file}`);

    const restored = await run("restore", [file], path.join(dir, "destino"));
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/users: 6/);
    // The audit log: the import's entry came with the backup, the restore wrote its own after it.
    const destination = await openEmbedded(path.join(dir, "destino"));
    try {
      const log = await destination.db
        .select({ action: auditLog.action, actorName: auditLog.actorName, role: auditLog.role })
        .from(auditLog)
        .orderBy(asc(auditLog.at));
      expect(log).toEqual([
        { action: "import", actorName: "Importación", role: "system" },
        { action: "restore", actorName: "Restauración", role: "system" },
      ]);
    } finally {
      await destination.close();
    }
  },
  TIMEOUT_MS * 3,
);

test(
  "npm run import --dry-run leaves no trace: no data folder is created",
  async () => {
    const dataDir = path.join(dir, "prueba-en-seco");
    const result = await run("import", ["--dry-run", ...FIXTURE_FILES], dataDir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Prueba (--dry-run): no se guardó nada.");
    expect(result.stdout).toMatch(/usuarios\s+7\s+6\s+0\s+0\s+1/);
    expect(fs.existsSync(dataDir)).toBe(false);
  },
  TIMEOUT_MS,
);

test(
  "npm run import refuses an existing --report file and files of no community collection before touching anything",
  async () => {
    const dataDir = path.join(dir, "sin-importar");
    const existing = path.join(dir, "ya-existe.txt");
    fs.writeFileSync(existing, "mío");
    const refused = await run("import", ["--report", existing, ...FIXTURE_FILES], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `Error: ${existing}: ya existe (--report no sobrescribe: elige otro nombre). No se importó nada.`,
    );
    expect(fs.readFileSync(existing, "utf8")).toBe("mío");

    const other = path.join(dir, "otro-proyecto.json");
    fs.writeFileSync(other, JSON.stringify({ clientes: { c1: { nombre: "X" } } }));
    const report = path.join(dir, "informe-vacio.txt");
    const unknown = await run("import", ["--report", report, other], dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toMatch(
      /^Error: no se reconoce ninguna colección de la comunidad en .*otro-proyecto\.json \(.*\)\. No se importó nada\.$/,
    );
    expect(unknown.stdout).toBe("");
    noStack(unknown.stderr);
    expect(fs.existsSync(report)).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(false);
  },
  TIMEOUT_MS,
);
