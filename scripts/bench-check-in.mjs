// The check-in page with the WebAssembly QR decoder, measured in Debian's Chromium (which has no
// BarcodeDetector): the bytes of script and WebAssembly the page loads (as built, and gzipped as
// the server sends them), and the time from the first camera frame that shows a pass to the
// person's name on the page. It runs the browser test tests/e2e/qr-camera.spec.ts, whose fake
// camera plays real passes, ROUNDS times (default 3), and prints the figures that test reports.
// Needs ffmpeg (Debian: apt-get install ffmpeg). `npm run bench:check-in`.
import { spawn } from "node:child_process";

const rounds = Number(process.env.ROUNDS ?? 3);
const child = spawn(
  "npx",
  [
    "playwright",
    "test",
    "tests/e2e/qr-camera.spec.ts",
    "--reporter=line",
    `--repeat-each=${rounds}`,
    // One at a time, so that the rounds do not share the processor.
    "--workers=1",
  ],
  {
    env: { ...process.env, E2E_PORT: process.env.E2E_PORT ?? "3410" },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const figures = [];
const output = [];
let rest = "";
child.stdout.on("data", (chunk) => {
  rest += chunk.toString();
  const lines = rest.split("\n");
  rest = lines.pop() ?? "";
  for (const line of lines) {
    output.push(line);
    const at = line.indexOf("[registro con cámara] ");
    if (at >= 0) figures.push(line.slice(at + "[registro con cámara] ".length).trim());
  }
});
child.on("close", (code) => {
  if (code !== 0) {
    console.error(output.filter((line) => !line.startsWith("[WebServer]")).join("\n"));
    console.error(`La prueba del navegador falló (código ${code}): no hay cifras.`);
    process.exit(code ?? 1);
  }
  const sizes = figures.filter((line) => !line.startsWith("del pase"));
  const times = figures
    .filter((line) => line.startsWith("del pase"))
    .flatMap((line) => [...line.matchAll(/(\d+) ms/g)].map((m) => Number(m[1])))
    .sort((a, b) => a - b);
  console.log("Página de registro con el lector de QR (Chromium sin BarcodeDetector)");
  for (const line of new Set(sizes)) console.log(`  ${line}`);
  if (times.length) {
    const median = times[Math.floor(times.length / 2)];
    console.log(
      `  del pase delante de la cámara a la confirmación: mediana ${median} ms, ` +
        `mín ${times[0]} ms, máx ${times.at(-1)} ms (${times.length} lecturas)`,
    );
  }
});
