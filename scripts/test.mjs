// npm test: every test. Unit and integration tests (Vitest; also on PostgreSQL when
// TEST_DATABASE_URL is set), then the browser tests (Playwright with Debian's Chromium).
import { spawnSync } from "node:child_process";

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

const bin = (name) => `node_modules/.bin/${name}`;
const args = process.argv.slice(2);
let status = run(bin("react-router"), ["typegen"]);
if (status === 0) status = run(bin("tsc"), []);
if (status === 0) status = run(bin("vitest"), ["run", ...args]);
if (status === 0) status = run(bin("playwright"), ["test"]);
process.exit(status);
