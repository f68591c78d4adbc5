// The pictures the site ships (public/): drawings only. An SVG shown as an <img> cannot use the
// site's font, so any text in it would be drawn in the phone's default (Arial, say) and would
// repeat, or contradict, the title the card already shows beside it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";

const PUBLIC = join(import.meta.dirname, "../../public");

function svgs(dir = PUBLIC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return svgs(path);
    return entry.name.endsWith(".svg") ? [path] : [];
  });
}

test("the site's drawings hold no text and load nothing from elsewhere", () => {
  const files = svgs();
  expect(files.length).toBeGreaterThan(10);
  const withText = files.filter((path) => /<text[\s>]/.test(readFileSync(path, "utf8")));
  expect(withText.map((path) => relative(PUBLIC, path))).toEqual([]);
  const external = files.filter((path) =>
    /(?:href|src)\s*=\s*["']\s*(?:https?:)?\/\//i.test(readFileSync(path, "utf8")),
  );
  expect(external.map((path) => relative(PUBLIC, path))).toEqual([]);
});
