import { expect, test } from "vitest";
import { safeImageUrl } from "~/lib/checks";

test("an image address is shown only when it is http(s) or a path on this site", () => {
  expect(safeImageUrl("https://example.org/a.png")).toBe("https://example.org/a.png");
  expect(safeImageUrl("/demo/vision.svg")).toBe("/demo/vision.svg");
  for (const other of ["//evil.example/a.png", "/\\evil.example/a.png", "ftp://example.org/a.png"])
    expect(safeImageUrl(other)).toBeNull();
  expect(safeImageUrl("javascript:alert(1)")).toBeNull();
  expect(safeImageUrl("")).toBeNull();
  expect(safeImageUrl(null)).toBeNull();
});
