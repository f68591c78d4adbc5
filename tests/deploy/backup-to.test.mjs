// `./ayllu backup --to FILE` (./ayllu, sourced) in real folders: the copy leaves the site's
// container on stdout (`node cli.js backup --to -`, which the integration tests run for real;
// here a stand-in for the container prints a copy, a cut one, or fails), reaches FILE only whole,
// never over a file that exists, and the operator is told where it is and the scp command.
//   node --test tests/deploy/backup-to.test.mjs
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";

const ayllu = path.resolve(import.meta.dirname, "../../ayllu");
const cleanups = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()();
});

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copia-host-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Runs `./ayllu backup ARGS` with the site's container standing in as `container` (a shell body
 * that gets the command's arguments); its status and output. The arguments it got are in
 * `$AYLLU_TEST_ARGS_FILE`.
 */
function backup(args, container, extraEnv = {}, cwd = undefined) {
  const argsFile = path.join(tempDir(), "args");
  const script = `. "${ayllu}"
service_exec() { shift; printf '%s\\n' "$*" >"${argsFile}"; ${container}; }
main backup ${args.map((a) => `'${a}'`).join(" ")}`;
  const result = spawnSync("bash", ["-c", script], {
    encoding: "utf8",
    env: { ...process.env, LANG: "es_BO.UTF-8", AYLLU_DIR: tempDir(), ...extraEnv },
    timeout: 60_000,
    cwd,
  });
  const got = fs.existsSync(argsFile) ? fs.readFileSync(argsFile, "utf8").trim() : null;
  return { status: result.status, output: `${result.stdout}${result.stderr}`, got };
}

const WHOLE = "printf 'una copia entera' | gzip -c";

test("a backup reaches FILE whole, readable by its owner only, with where it is, the scp command and how to restore it", () => {
  const folder = tempDir();
  const file = path.join(folder, "ayllu-2026-12-07.ayllu.gz");
  const result = backup(["--permitir-faltantes", "--to", file], WHOLE);
  assert.equal(result.status, 0, result.output);
  assert.equal(result.got, "node cli.js backup --permitir-faltantes --to -");
  assert.deepEqual(fs.readdirSync(folder), ["ayllu-2026-12-07.ayllu.gz"]);
  assert.equal(execFileSync("gzip", ["-dc", file], { encoding: "utf8" }), "una copia entera");
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const host = execFileSync("bash", ["-c", "hostname -f 2>/dev/null || hostname"], {
    encoding: "utf8",
  }).trim();
  const user = os.userInfo().username;
  assert.match(result.output, new RegExp(`Copia de seguridad en ${file} \\(\\d+ bytes\\)`));
  assert.ok(result.output.includes(`  scp ${user}@${host}:${file} .\n`), result.output);
  assert.match(result.output, /\.\/ayllu restore ~\/ayllu-2026-12-07\.ayllu\.gz/);

  // A relative FILE is named by its whole path; SUDO_USER is who runs scp.
  const here = fs.realpathSync(tempDir());
  const relative = backup(["--to", "copia.gz"], WHOLE, { SUDO_USER: "ana" }, here);
  assert.equal(relative.status, 0, relative.output);
  assert.ok(relative.output.includes(`scp ana@${host}:${here}/copia.gz .`), relative.output);
  assert.deepEqual(fs.readdirSync(here), ["copia.gz"]);
});

test("a copy cut on its way out, or one the container fails to make, leaves no file at all", () => {
  const folder = tempDir();
  const file = path.join(folder, "copia.ayllu.gz");
  const cut = backup(["--to", file], `${WHOLE} | head -c 12`);
  assert.equal(cut.status, 1);
  assert.match(cut.output, /la copia llegó incompleta del contenedor; no quedó ningún archivo/);
  assert.deepEqual(fs.readdirSync(folder), []);

  const failed = backup(
    ["--to", file],
    "printf 'a medias' ; echo 'Error: Faltan 3 archivos que la base de datos nombra' >&2; return 1",
  );
  assert.equal(failed.status, 1);
  assert.match(failed.output, /Faltan 3 archivos/);
  assert.match(
    failed.output,
    /no se hizo la copia \(arriba dice por qué\); no quedó ningún archivo/,
  );
  assert.deepEqual(fs.readdirSync(folder), []);
});

test("a folder that is not there, a file that exists, a folder it cannot write and no FILE are refused before the container is asked", () => {
  const folder = tempDir();
  const missing = backup(["--to", path.join(folder, "no-existe", "c.gz")], WHOLE);
  assert.equal(missing.status, 1);
  assert.match(
    missing.output,
    /la carpeta .*no-existe no existe: créala \(mkdir -p .*\) o elige otra/,
  );
  assert.equal(missing.got, null);

  const existing = path.join(folder, "copia.ayllu.gz");
  fs.writeFileSync(existing, "la de ayer");
  const there = backup(["--to", existing], WHOLE);
  assert.equal(there.status, 1);
  assert.ok(there.output.includes(`${existing} ya existe y no se sobrescribe`), there.output);
  assert.ok(there.output.includes(`(rm ${existing})`));
  assert.equal(fs.readFileSync(existing, "utf8"), "la de ayer");
  assert.equal(there.got, null);

  const locked = tempDir();
  if (process.getuid() === 0) {
    execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", locked]);
    cleanups.push(() => execFileSync("umount", [locked]));
  } else {
    fs.chmodSync(locked, 0o555);
    cleanups.push(() => fs.chmodSync(locked, 0o755));
  }
  const cannot = backup(["--to", path.join(locked, "c.gz")], WHOLE);
  assert.equal(cannot.status, 1);
  assert.match(cannot.output, /no se puede escribir en .*: elige una carpeta tuya/);
  assert.equal(cannot.got, null);

  const usage = backup(["--to"], WHOLE);
  assert.equal(usage.status, 1);
  assert.match(usage.output, /uso: \.\/ayllu backup \[--permitir-faltantes\] \[--to ARCHIVO\]/);
});

test("without --to, ./ayllu backup is the copy into the backups volume, as before", () => {
  const result = backup(["--permitir-faltantes"], "echo escrita");
  assert.equal(result.status, 0, result.output);
  assert.equal(result.got, "node cli.js backup --permitir-faltantes");
});
