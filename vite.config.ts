import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Rollup } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * Every page loads the root route and what it imports: those modules (React Router among them)
 * go into one chunk instead of the dozens of small ones Rollup would make, so a first visit asks
 * for a handful of scripts rather than thirty (issue 36: each request costs the phone a fetch to
 * start and its headers). React and React DOM stay in the client entry's chunk.
 */
function rootChunk(): Rollup.GetManualChunk {
  let fromRoot: Set<string> | null = null;
  return (id, { getModuleInfo }) => {
    if (!fromRoot) {
      const root = [...(getModuleInfo(ROOT_ROUTE)?.importedIds ?? [])];
      if (!getModuleInfo(ROOT_ROUTE)) return undefined;
      fromRoot = new Set();
      while (root.length > 0) {
        const next = root.pop()!;
        if (fromRoot.has(next)) continue;
        fromRoot.add(next);
        root.push(...(getModuleInfo(next)?.importedIds ?? []));
      }
    }
    if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return undefined;
    return fromRoot.has(id) ? "root-shared" : undefined;
  };
}

const ROOT_ROUTE = path.resolve(import.meta.dirname, "app/root.tsx");

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, which imports React Router's server build.
    rollupOptions: isSsrBuild
      ? { input: "./server/http/main.server.ts" }
      : { output: { manualChunks: rootChunk() } },
    target: "es2022",
  },
  // The check-in page's QR decoder worker is an ES module (app/attendance/qr-worker-reader.ts).
  worker: { format: "es" as const, plugins: () => [tsconfigPaths()] },
  plugins: [reactRouter(), tsconfigPaths()],
}));
