import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig(({ isSsrBuild }) => ({
  build: {
    // The server bundle's entry is our Express app, which imports React Router's server build.
    rollupOptions: isSsrBuild ? { input: "./server/http/main.server.ts" } : undefined,
    target: "es2022",
  },
  // The check-in page's QR decoder worker is an ES module (app/attendance/qr-worker-reader.ts).
  worker: { format: "es" as const, plugins: () => [tsconfigPaths()] },
  plugins: [reactRouter(), tsconfigPaths()],
}));
