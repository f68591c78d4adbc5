// The guides lead where they say: every relative link in the README and in docs/ names a file
// that exists, and a link to a heading (#…) names a heading of that file, as GitHub spells its
// anchors (lower case, accents kept, spaces to hyphens, other punctuation dropped). Code is not
// read: an example in it is not a link.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set(
    [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}

const files = ["README.md", ...markdownFiles("docs")];

test.each(files)("every relative link in %s leads to a file and heading that exist", (file) => {
  const text = fs
    .readFileSync(path.join(ROOT, file), "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`]*`/g, "");
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!) || target!.startsWith("#")) continue;
    const [pathPart, anchor] = target!.split("#") as [string, string | undefined];
    const resolved = path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart)));
    if (!fs.existsSync(path.join(ROOT, resolved))) {
      broken.push(`${target} (no existe ${resolved})`);
      continue;
    }
    if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
      broken.push(`${target} (${resolved} no tiene ese título)`);
  }
  expect(broken).toEqual([]);
});
