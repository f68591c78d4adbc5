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

test("the QR decoder is its own files, reached only from the check-in page by a dynamic import", () => {
  const files = fs.readdirSync(ASSETS);
  const read = (name: string) => fs.readFileSync(path.join(ASSETS, name), "utf8");
  const chunks = files.filter((name) => name.endsWith(".js"));
  // The WebAssembly and the worker that runs it, served by the site (decision 040).
  expect(files.filter((name) => /^zxing_reader-[\w-]+\.wasm$/.test(name))).toHaveLength(1);
  const worker = chunks.filter((name) => /^qr-decoder\.worker-[\w-]+\.js$/.test(name));
  expect(worker).toHaveLength(1);
  // ZXing's code is in the worker only.
  expect(chunks.filter((name) => read(name).includes("readBarcodesFromPixmap"))).toEqual(worker);
  // The worker is started by one small chunk…
  const starter = chunks.filter((name) => read(name).includes(worker[0]!));
  expect(starter).toHaveLength(1);
  expect(starter[0]).toMatch(/^qr-worker-reader-/);
  // …which only the check-in route's chunk imports, and only when it is asked for.
  const base = starter[0]!;
  const importers = chunks.filter((name) => name !== base && read(name).includes(base));
  expect(importers).toHaveLength(1);
  expect(importers[0]).toMatch(/^check-in-/);
  expect(read(importers[0]!)).toContain(`import("./${base}")`);
  expect(read(importers[0]!)).not.toMatch(new RegExp(`from\\s*"\\./${base.replace(".", "\\.")}"`));
});
