// The decisions keep their index (docs/decisions/README.md): every decision is listed, every link
// leads to a file, every decision says its status right after its title, and a status names only
// decisions that exist. The index's status of a decision is the one its file states.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { readSource } from "../helpers/sources";

const DIR = "docs/decisions";
const DECISION = /^\d{3}-[a-z0-9-]+\.md$/;
const STATUS = /^(?:\*\*Status\.\*\* )?(Accepted|Amended by|Superseded by)\b/;

const files = fs
  .readdirSync(path.resolve(import.meta.dirname, "../..", DIR))
  .filter((name) => DECISION.test(name))
  .sort();
const numbers = new Set(files.map((file) => file.slice(0, 3)));
const index = readSource(`${DIR}/README.md`);

/** The decision files a piece of Markdown links to, by their file names. */
function linkedDecisions(markdown: string): string[] {
  return [...markdown.matchAll(/\]\((\d{3}-[^)#\s]+\.md)\)/g)].map((m) => m[1]!);
}

/** The status paragraph of a decision: the lines after its title, up to the first blank line. */
function statusOf(file: string): string {
  const lines = readSource(`${DIR}/${file}`).split("\n");
  const end = lines.indexOf("", 2);
  return lines.slice(2, end === -1 ? undefined : end).join(" ");
}

/** A status (a file's line or the index's cell) reduced to its kind and the decisions it names. */
function statusKind(status: string): string {
  const kind = STATUS.exec(status)?.[1] ?? "none";
  if (kind === "Accepted") return kind;
  const by = status.slice(0, status.indexOf(":") === -1 ? undefined : status.indexOf(":"));
  return `${kind} ${linkedDecisions(by)
    .map((file) => file.slice(0, 3))
    .join(", ")}`;
}

/** The index's rows: number, linked file and status cell. */
function indexRows(): { number: string; file: string; status: string }[] {
  const rows = [];
  for (const line of index.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (!/^\d{3}$/.test(cells[1] ?? "")) continue;
    rows.push({ number: cells[1]!, file: linkedDecisions(cells[2]!)[0] ?? "", status: cells[3]! });
  }
  return rows;
}

test("the decisions are there to be checked", () => {
  expect(files.length).toBeGreaterThan(60);
  expect(indexRows().length).toBeGreaterThan(60);
});

test("every decision file has one row in the index, under its own number", () => {
  const rows = indexRows();
  expect(rows.map((row) => row.file)).toEqual(files);
  for (const row of rows) expect(row.file.slice(0, 3), row.file).toBe(row.number);
});

test("every decision the index links to is a file", () => {
  const missing = linkedDecisions(index).filter((file) => !files.includes(file));
  expect(missing).toEqual([]);
});

test("every decision states its status right after its title", () => {
  const without = files.filter(
    (file) => !statusOf(file).startsWith("**Status.** ") || !STATUS.test(statusOf(file)),
  );
  expect(without).toEqual([]);
});

test("a status names only decisions that exist", () => {
  const wrong: string[] = [];
  for (const file of files) {
    const status = statusOf(file);
    const named = [
      ...linkedDecisions(status).map((linked) => {
        if (!files.includes(linked)) wrong.push(`${file}: links ${linked}, which does not exist`);
        return linked.slice(0, 3);
      }),
      ...[...status.matchAll(/\b(?:decisions?|by) (\d{3})\b/g)].map((m) => m[1]!),
    ];
    for (const number of named)
      if (!numbers.has(number)) wrong.push(`${file}: names ${number}, which does not exist`);
    const kind = statusKind(status);
    if (/^(Amended|Superseded) by $/.test(kind))
      wrong.push(`${file}: '${kind.trim()}' names no decision by its link`);
  }
  expect(wrong).toEqual([]);
});

test("the index shows the status each decision states", () => {
  const differ = indexRows()
    .filter((row) => files.includes(row.file))
    .map((row) => ({ file: row.file, index: statusKind(row.status) }))
    .filter((row) => row.index !== statusKind(statusOf(row.file)));
  expect(differ).toEqual([]);
});
