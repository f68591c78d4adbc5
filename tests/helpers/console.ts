import { beforeEach, expect, vi } from "vitest";

/**
 * The server runs in the test's process: an error it logs while a test runs is a failure nobody
 * asserted. Call once at the top of a test file.
 */
export function failOnConsoleError() {
  beforeEach(() => {
    const consoleError = vi.spyOn(console, "error");
    return () => {
      const calls = consoleError.mock.calls;
      consoleError.mockRestore();
      expect(calls).toEqual([]);
    };
  });
}
