// npm test: every test. Type check and lint (ESLint, Prettier), unit and integration tests
// (Vitest; also on PostgreSQL when TEST_DATABASE_URL is set), then the browser tests (Playwright with Debian's Chromium). Prints
// how long each phase took, so that a slower suite is noticed.
import { spawnSync } from "node:child_process";

const timings = [];

function run(label, command, args) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  timings.push(`${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result.status ?? 1;
}

const bin = (name) => `node_modules/.bin/${name}`;
const args = process.argv.slice(2);
let status = run("typegen", bin("react-router"), ["typegen"]);
if (status === 0) status = run("tsc", bin("tsc"), []);
if (status === 0) status = run("eslint", bin("eslint"), ["."]);
if (status === 0) status = run("prettier", bin("prettier"), ["--check", "."]);
if (status === 0) status = run("vitest", bin("vitest"), ["run", ...args]);
if (status === 0) status = run("playwright", bin("playwright"), ["test"]);
console.log(`\nDuración: ${timings.join(", ")}`);
process.exit(status);
