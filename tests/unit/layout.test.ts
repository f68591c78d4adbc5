// The layout keeps itself (docs/decisions/029-one-folder-per-domain.md): the import graph of app/
// and server/ has no circle, arrows point down (host → routes → domains → kernel, db, ui), nothing
// but the host imports the host, and nothing the browser may load imports server-only code.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { readSource, sourceFilesUnder } from "../helpers/sources";

const ROOT = path.resolve(import.meta.dirname, "../..");
const IMPORT =
  /(?:import|export)\s([^'"]*?)from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

const DOMAINS = [
  "members",
  "events",
  "attendance",
  "publications",
  "site",
  "mail",
  "uploads",
  "audit",
  "payments",
  "competitions",
] as const;
const BASE = ["kernel", "db", "ui"] as const;

type Layer = "host" | "app" | "domain" | "base";

/** Where a file stands: the host (server/), the app (routes and app/*), a domain, or the base. */
function layerOf(file: string): Layer {
  if (file.startsWith("server/")) return "host";
  const [, top] = file.split("/");
  if ((DOMAINS as readonly string[]).includes(top!)) return "domain";
  if ((BASE as readonly string[]).includes(top!)) return "base";
  return "app";
}

interface Import {
  to: string;
  /** `import type` / `export type`: erased from the JavaScript, it ties only meanings together. */
  typeOnly: boolean;
}

/** Every file of app/ and server/ with the files of app/ and server/ it imports. */
function importGraph(files: Map<string, string>): Map<string, Import[]> {
  const resolve = (from: string, spec: string): string | null => {
    let base: string;
    if (spec.startsWith("~/")) base = `app/${spec.slice(2)}`;
    else if (spec.startsWith("#server/")) base = `server/${spec.slice(8)}`;
    else if (spec.startsWith("."))
      base = path.posix.normalize(`${path.posix.dirname(from)}/${spec}`);
    else return null;
    const stem = base.replace(/\.(js|mjs)$/, "");
    for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${base}/index.ts`])
      if (files.has(candidate)) return candidate;
    return null;
  };
  const graph = new Map<string, Import[]>();
  for (const [file, text] of files) {
    const imports = new Map<string, boolean>();
    for (const match of text.matchAll(IMPORT)) {
      const to = resolve(file, match[2] ?? match[3] ?? match[4]!);
      const typeOnly = /^type\s/.test(match[1] ?? "");
      if (to && to !== file) imports.set(to, (imports.get(to) ?? true) && typeOnly);
    }
    graph.set(
      file,
      [...imports].map(([to, typeOnly]) => ({ to, typeOnly })),
    );
  }
  return graph;
}

/** The import circles: strongly connected groups of more than one file (Tarjan). */
function circles(graph: Map<string, Import[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const { to: target } of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Route modules: React Router keeps their loaders and actions (and what only those import) on the server. */
function isRouteModule(file: string): boolean {
  return file.startsWith("app/routes/") || file === "app/root.tsx";
}

const isServerOnly = (file: string) => /\.server\.tsx?$/.test(file);

/** Imports that break the layout's rules, as "from → to: why". */
function layoutViolations(graph: Map<string, Import[]>): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    const fromLayer = layerOf(from);
    for (const { to, typeOnly } of imports) {
      const toLayer = layerOf(to);
      const why =
        toLayer === "host" && fromLayer !== "host"
          ? "only the host imports the host (server/)"
          : fromLayer === "domain" && toLayer === "app"
            ? "a domain imports no route and nothing of the app's own (app/*.ts, app/routes/)"
            : fromLayer === "base" && (toLayer === "app" || toLayer === "domain")
              ? "kernel, db and ui import no domain, route or app module"
              : !typeOnly && !isServerOnly(from) && !isRouteModule(from) && isServerOnly(to)
                ? "code the browser may load imports server-only code (*.server.ts)"
                : null;
      if (why) out.push(`${from} → ${to}: ${why}`);
    }
  }
  return out;
}

/**
 * The floor plan among domains (decision 072): a domain imports only domains below it in this
 * list. Lowest first: uploads and audit are the floor; a seat's hold is a payment, so payments sit
 * under events; what gathers several domains (the member's data, the demo, Diagnóstico, the
 * expiry of holds, the mails' writers, the offline queues) is the app's, above them all.
 */
const DOMAIN_ORDER = [
  "uploads",
  "audit",
  "mail",
  "members",
  "site",
  "payments",
  "events",
  "attendance",
  "competitions",
  "publications",
] as const;

/**
 * The upward imports allowed, as "from → to" domains, each with its reason. None today: a new one
 * needs its reason here, and an entry whose imports are gone fails the test too.
 */
const UPWARD_ALLOWED: Record<string, string> = {};

/** Imports from a domain to one above it in DOMAIN_ORDER, as "from → to" domain pairs with their files. */
function upwardImports(graph: Map<string, Import[]>): Map<string, string[]> {
  const rank = (file: string) => {
    const [, top] = file.split("/");
    return (DOMAIN_ORDER as readonly string[]).indexOf(top!);
  };
  const out = new Map<string, string[]>();
  for (const [from, imports] of graph) {
    if (layerOf(from) !== "domain") continue;
    for (const { to } of imports) {
      if (layerOf(to) !== "domain" || rank(to) <= rank(from)) continue;
      const pair = `${from.split("/")[1]} → ${to.split("/")[1]}`;
      out.set(pair, [...(out.get(pair) ?? []), `${from} → ${to}`]);
    }
  }
  return out;
}

function readSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of [...sourceFilesUnder("app"), ...sourceFilesUnder("server")])
    files.set(file, readSource(file));
  return files;
}

test("app/ and server/ have no import circle", () => {
  expect(circles(importGraph(readSources()))).toEqual([]);
});

test("every import follows the layout: down the layers, the host imported by nobody, nothing server-only for the browser", () => {
  expect(layoutViolations(importGraph(readSources()))).toEqual([]);
});

test("the domains keep their floor plan: none imports one above it but the exceptions named with their reason", () => {
  expect([...DOMAIN_ORDER].sort()).toEqual([...DOMAINS].sort());
  const upward = upwardImports(importGraph(readSources()));
  const unexplained = [...upward].filter(([pair]) => !UPWARD_ALLOWED[pair]);
  expect(unexplained.map(([, files]) => files).flat()).toEqual([]);
  // An exception whose imports are gone leaves the list.
  expect(Object.keys(UPWARD_ALLOWED).filter((pair) => !upward.has(pair))).toEqual([]);
});

test("app/ holds only the app's own files, the routes and the domain, kernel, db and ui folders", () => {
  const folders = fs
    .readdirSync(path.join(ROOT, "app"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  expect(folders).toEqual([...DOMAINS, ...BASE, "routes", "styles"].sort());
});

test("docs/development.md maps every domain folder", () => {
  const guide = fs.readFileSync(path.join(ROOT, "docs", "development.md"), "utf8");
  const mapped = new Set([...guide.matchAll(/^app\/([a-z]+)\/ /gm)].map((match) => match[1]));
  expect([...DOMAINS, ...BASE].filter((folder) => !mapped.has(folder))).toEqual([]);
});

test("the check sees a circle, an upward import, the host imported and server code for the browser", () => {
  const graph = importGraph(
    new Map([
      ["app/events/a.server.ts", 'import { b } from "./b.server";'],
      ["app/events/b.server.ts", 'import { a } from "~/events/a.server";'],
      ["app/kernel/time.ts", 'import { x } from "~/events/x";'],
      ["app/events/y.ts", 'import type { A } from "./a.server";'],
      ["app/events/x.ts", 'import { y } from "~/routes/events/list";\nimport "./a.server";'],
      ["app/routes/events/list.tsx", 'import { z } from "#server/http/app.server";'],
      ["server/http/app.server.ts", 'export const z = await import("~/events/a.server");'],
    ]),
  );
  expect(circles(graph)).toEqual([["app/events/a.server.ts", "app/events/b.server.ts"]]);
  const floors = upwardImports(
    importGraph(
      new Map([
        ["app/events/seats.server.ts", 'import { t } from "~/competitions/teams.server";'],
        ["app/competitions/teams.server.ts", 'import { s } from "~/events/seats.server";'],
      ]),
    ),
  );
  expect([...floors]).toEqual([
    ["events → competitions", ["app/events/seats.server.ts → app/competitions/teams.server.ts"]],
  ]);
  expect(layoutViolations(graph).sort()).toEqual([
    "app/events/x.ts → app/events/a.server.ts: code the browser may load imports server-only code (*.server.ts)",
    "app/events/x.ts → app/routes/events/list.tsx: a domain imports no route and nothing of the app's own (app/*.ts, app/routes/)",
    "app/kernel/time.ts → app/events/x.ts: kernel, db and ui import no domain, route or app module",
    "app/routes/events/list.tsx → server/http/app.server.ts: only the host imports the host (server/)",
  ]);
});

test("every intent a form sends or an action reads is one camelCase name", () => {
  const intents = new Set<string>();
  const patterns = [
    /name="intent"[^>]*?value="([^"]+)"/g,
    /value="([^"]+)"[^>]*?name="intent"/g,
    /intent === "([^"]+)"/g,
    /form\.get\("intent"\) === "([^"]+)"/g,
  ];
  for (const text of readSources().values())
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) intents.add(match[1]!);
  expect(intents.size).toBeGreaterThan(10);
  expect([...intents].filter((intent) => !/^[a-z]+(?:[A-Z][a-z]*)*$/.test(intent))).toEqual([]);
});
