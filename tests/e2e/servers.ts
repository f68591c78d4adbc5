// The browser tests run in two workers, each against a server of its own (its own port and data
// folder), so that one worker's journeys never see the other's sign-ins, saves or live echoes.
// Playwright starts the servers (playwright.config.ts); a worker finds its own by its index.

/** Browser tests at once; each has its server on E2E_PORT plus its index. */
export const E2E_WORKERS = 2;

const firstPort = Number(process.env.E2E_PORT ?? 3210);

/** The port of the server for the worker with this parallel index (0 … E2E_WORKERS - 1). */
export function e2ePort(parallelIndex: number): number {
  return firstPort + parallelIndex;
}

/** Where the worker with this parallel index sends its pages. */
export function e2eBaseUrl(parallelIndex: number): string {
  return `http://localhost:${e2ePort(parallelIndex)}`;
}
