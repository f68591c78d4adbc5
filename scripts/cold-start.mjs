// Measures how long `node server.js` takes until it answers GET / (production build, embedded
// database in DATA_DIR, which is created and seeded by a first run that is not counted).
//   node scripts/cold-start.mjs [runs]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const runs = Number(process.argv[2] ?? 5);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-cold-"));
const port = 3900 + Math.floor(Math.random() * 90);

async function startOnce() {
  const started = performance.now();
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: "" },
    stdio: "ignore",
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://localhost:${port}/`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 60_000) throw new Error("no arrancó en 60 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

const first = await startOnce();
console.log(`primer arranque (crea y siembra la base de datos): ${first.toFixed(0)} ms`);
const times = [];
for (let i = 0; i < runs; i++) times.push(await startOnce());
times.sort((a, b) => a - b);
console.log(
  `arranque con la carpeta de datos existente, ${runs} veces: mediana ${times[Math.floor(runs / 2)].toFixed(0)} ms, mín ${times[0].toFixed(0)} ms, máx ${times.at(-1).toFixed(0)} ms`,
);
fs.rmSync(dataDir, { recursive: true, force: true });
