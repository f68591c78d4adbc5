// What the browser downloads: the production build (global setup builds it when the sources
// changed) must not carry the validation library; forms are checked on the server (decision 006).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const ASSETS = path.resolve(import.meta.dirname, "../../build/client/assets");

test("no browser chunk contains zod", () => {
  const chunks = fs.readdirSync(ASSETS).filter((name) => name.endsWith(".js"));
  expect(chunks.length).toBeGreaterThan(0);
  // Strings zod's own code carries, whatever the minifier does to names.
  const marks = ["ZodError", "$ZodType", "_zod"];
  const withZod = chunks.filter((name) => {
    const text = fs.readFileSync(path.join(ASSETS, name), "utf8");
    return marks.some((mark) => text.includes(mark));
  });
  expect(withZod).toEqual([]);
});
