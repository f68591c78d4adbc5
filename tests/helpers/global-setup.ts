import { spawnSync } from "node:child_process";

// HTTP-level tests import build/server/index.js: make sure it is the build of these sources.
export default function setup() {
  const result = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("La construcción del sitio falló");
}
