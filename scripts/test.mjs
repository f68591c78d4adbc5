// npm test: every test. Type check and lint (ESLint, Prettier), unit and integration tests
// (Vitest; also on PostgreSQL when TEST_DATABASE_URL is set), then the browser tests (Playwright
// with Debian's Chromium). Prints how long each phase took, so that a slower suite is noticed.
//
// The machine's cores are kept busy: the site is built while the type check and lint run, and
// the browser tests run beside Vitest (both use the build; each has its own ports, data folders
// and databases). Their output is not mixed: the browser tests' lines are held until Vitest has
// finished.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const timings = [];
const bin = (name) => `node_modules/.bin/${name}`;

function elapsed(started) {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** Runs a command; with `hold`, its output waits until `hold.release()` is called. */
function run(label, command, args, options = {}) {
  const line = `$ ${command} ${args.join(" ")}`;
  const started = performance.now();
  const held = options.hold ? [`\n${line}\n`] : null;
  if (!held) console.log(`\n${line}`);
  const child = spawn(command, args, {
    stdio: held ? ["inherit", "pipe", "pipe"] : "inherit",
    // Held output is piped, not a terminal: keep its colours when this runs in one.
    env: {
      ...(held && process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}),
      ...process.env,
      ...options.env,
    },
  });
  if (held) {
    const write = (stream) => (chunk) => {
      if (options.hold.released) stream.write(chunk);
      else held.push([stream, chunk]);
    };
    child.stdout.on("data", write(process.stdout));
    child.stderr.on("data", write(process.stderr));
    options.hold.flush.push(() => {
      for (const item of held) {
        if (typeof item === "string") process.stdout.write(item);
        else item[0].write(item[1]);
      }
      held.length = 0;
    });
  }
  return new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(`${label}: ${error.message}`);
      timings.push(`${label} ${elapsed(started)}`);
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      timings.push(`${label} ${elapsed(started)}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Runs the steps one after the other, stopping at the first that fails. */
async function inOrder(steps) {
  for (const step of steps) {
    const status = await step();
    if (status !== 0) return status;
  }
  return 0;
}

/**
 * The type check, ESLint and Prettier at once (each uses one core). Their output is shown in
 * that order, each once the one before has finished.
 */
async function checksBesideEachOther() {
  const lintOutput = holdOutput();
  const formatOutput = holdOutput();
  const tsc = run("tsc", bin("tsc"), []).finally(() => lintOutput.release());
  const eslint = run("eslint", bin("eslint"), ["."], { hold: lintOutput });
  const prettier = run("prettier", bin("prettier"), ["--check", "."], { hold: formatOutput });
  const statuses = await Promise.all([tsc, eslint]).finally(() => formatOutput.release());
  statuses.push(await prettier);
  return statuses.find((status) => status !== 0) ?? 0;
}

function holdOutput() {
  const hold = { released: false, flush: [] };
  hold.release = () => {
    hold.released = true;
    for (const flush of hold.flush) flush();
  };
  return hold;
}

const args = process.argv.slice(2);
const started = performance.now();

// The build (when the sources changed) beside the checks; its output waits for theirs.
const buildOutput = holdOutput();
const [checks, build] = await Promise.all([
  inOrder([
    () => run("typegen", bin("react-router"), ["typegen"]),
    () => checksBesideEachOther(),
  ]).finally(() => buildOutput.release()),
  run("build", process.execPath, ["scripts/ensure-build.mjs"], { hold: buildOutput }),
]);

// Vitest's failures are printed before the browser tests' output; the reporter FailuresFile
// writes them here too, and they are printed again last, where the end of a long log shows them.
const failuresFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-test-")), "vitest.txt");

let status = checks || build;
if (status === 0) {
  const browserOutput = holdOutput();
  const [vitest, playwright] = await Promise.all([
    run("vitest", bin("vitest"), ["run", ...args], {
      env: { AYLLU_FAILURES_FILE: failuresFile },
    }).finally(() => browserOutput.release()),
    run("playwright", bin("playwright"), ["test"], { hold: browserOutput }),
  ]);
  status = vitest || playwright;
  const failures = fs.existsSync(failuresFile) ? fs.readFileSync(failuresFile, "utf8") : "";
  if (failures) console.log(`\nLo que falló en Vitest (repetido aquí):\n${failures}`);
  else if (vitest !== 0)
    console.log(`\nVitest terminó con el código ${vitest}; su salida está arriba.`);
}
fs.rmSync(path.dirname(failuresFile), { recursive: true, force: true });
console.log(`\nDuración: ${timings.join(", ")}; en total ${elapsed(started)}`);
process.exit(status);
