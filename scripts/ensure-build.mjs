// `npm start` runs this first: it builds the site only when the sources are newer than the
// last build, so a second start is quick.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
const stamp = path.join(root, "build", "server", "index.js");
const watched = [
  "app",
  "server",
  "public",
  "drizzle",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
];

function newest(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of fs.readdirSync(target))
    latest = Math.max(latest, newest(path.join(target, name)));
  return latest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const sources = Math.max(...watched.map((name) => newest(path.join(root, name))));
if (built > sources) process.exit(0);

// Measured: 25 s to a minute on a 2-core machine, more on a small one; say so, not "unos segundos".
console.log(
  "Construyendo el sitio (react-router build): la primera vez tarda de medio minuto a un par de minutos, según la máquina…",
);
const started = performance.now();
// Always the production bundle, whoever calls: under Vitest NODE_ENV is "test", which would ship
// React's development build to the browser. Its output (every chunk, React Router's notes on
// its next version) is shown only when the build fails: a person starting the site needs to know
// where to open it, not the build's internals.
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules", "@react-router", "dev", "bin.js"), "build"],
  {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: "production" },
  },
);
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  console.error(
    result.error ? `La construcción no arrancó: ${result.error.message}` : "La construcción falló.",
  );
  process.exit(result.status ?? 1);
}
console.log(`Sitio construido en ${((performance.now() - started) / 1000).toFixed(1)} s.`);
