import { expect, test } from "vitest";
import { isHttpUrl, safeImageUrl } from "~/kernel/checks";

test("an image address is shown only when it is http(s) or a path on this site", () => {
  expect(safeImageUrl("https://example.org/a.png")).toBe("https://example.org/a.png");
  expect(safeImageUrl("/demo/vision.svg")).toBe("/demo/vision.svg");
  for (const other of ["//evil.example/a.png", "/\\evil.example/a.png", "ftp://example.org/a.png"])
    expect(safeImageUrl(other)).toBeNull();
  expect(safeImageUrl("javascript:alert(1)")).toBeNull();
  expect(safeImageUrl("")).toBeNull();
  expect(safeImageUrl(null)).toBeNull();
});

test("isHttpUrl answers what the URL parser answers, also for the strings it skips parsing", () => {
  const parserSays = (value: string) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
    } catch {
      return false;
    }
  };
  for (const value of [
    "https://example.org/a.png",
    "HTTP://EXAMPLE.ORG",
    " https://example.org/ ",
    "ht\ttps://example.org/",
    "http:example.org",
    "https:/example.org",
    "https://",
    "/imagenes/a.webp",
    "example.org/a.png",
    "//example.org/a.png",
    "mailto:a@example.org",
    "javascript:alert(1)",
    "",
  ])
    expect(isHttpUrl(value), value).toBe(parserSays(value));
});
