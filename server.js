// Starts Ayllu: `node server.js` serves the production build (npm start builds it first);
// `node server.js --dev` serves the sources through Vite with hot reload (npm run dev).
const dev = process.argv.includes("--dev");

// The production bundle runs React and Express in their production mode whatever NODE_ENV says
// (development React renders several times slower); the configuration still reads the NODE_ENV
// that was given, which decides the production checks (see README, Configuration).
const requestedEnv = process.env.NODE_ENV;
if (!dev) process.env.NODE_ENV = "production";

let vite;
let entry;
if (dev) {
  const { createServer } = await import("vite");
  vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  entry = await vite.ssrLoadModule("/server/http/main.server.ts");
} else {
  entry = await import("./build/server/index.js");
}

let config;
try {
  config = entry.loadConfig({ ...process.env, NODE_ENV: requestedEnv });
} catch (error) {
  if (error instanceof Error && error.name === "ConfigError") {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let running;
try {
  running = await entry.startServer({ config, vite });
} catch (error) {
  await vite?.close();
  if (error instanceof Error && error.name === "DataDirInUseError") {
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
    console.error(`El puerto ${config.port} ya está en uso. Elige otro con PORT=…`);
    process.exit(1);
  }
  throw error;
}

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: cerrando el servidor y la base de datos…`);
    try {
      await running.close();
      await vite?.close();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  });
}
