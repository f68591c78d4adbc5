// The design system's rules (docs/decisions/014-design-system.md), checked over every stylesheet.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import postcss, { type Root, type Rule } from "postcss";
import { expect, test } from "vitest";

const APP = join(import.meta.dirname, "../../app");
const TOKENS = "styles/tokens.css";

function stylesheets(dir = APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(path);
    return entry.name.endsWith(".css") ? [path] : [];
  });
}

const sheets = stylesheets().map((path) => ({
  name: relative(APP, path),
  root: postcss.parse(readFileSync(path, "utf8"), { from: path }),
}));

function rules(root: Root): Rule[] {
  const found: Rule[] = [];
  root.walkRules((rule) => {
    // Keyframe steps ("from", "50%") are not selectors.
    if (rule.parent?.type === "atrule" && /keyframes$/.test(rule.parent.name)) return;
    found.push(rule);
  });
  return found;
}

const normalised = (selector: string) => selector.replace(/\s+/g, " ").trim();

/** Selectors defined in more than one stylesheet, with the stylesheets that define each. */
export function sharedSelectors(files: { name: string; root: Root }[]): Map<string, string[]> {
  const owners = new Map<string, Set<string>>();
  for (const { name, root } of files) {
    for (const rule of rules(root)) {
      for (const selector of rule.selectors.map(normalised)) {
        const set = owners.get(selector) ?? new Set<string>();
        set.add(name);
        owners.set(selector, set);
      }
    }
  }
  return new Map(
    [...owners].filter(([, names]) => names.size > 1).map(([sel, names]) => [sel, [...names]]),
  );
}

const COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/i;

test("the stylesheets are found: tokens, base, shared UI and the areas", () => {
  const names = sheets.map((sheet) => sheet.name);
  expect(names).toEqual(
    expect.arrayContaining([TOKENS, "styles/base.css", "styles/ui.css", "styles/landing.css"]),
  );
});

test("no selector is defined in two stylesheets", () => {
  expect(Object.fromEntries(sharedSelectors(sheets))).toEqual({});
});

test("the check sees a selector defined in two stylesheets, also inside a media query", () => {
  const a = postcss.parse(".button { color: red; }\n.a, .b { margin: 0; }");
  const b = postcss.parse("@media (min-width: 1px) { .b { margin: 1px; } }");
  expect(
    Object.fromEntries(
      sharedSelectors([
        { name: "a.css", root: a },
        { name: "b.css", root: b },
      ]),
    ),
  ).toEqual({ ".b": ["a.css", "b.css"] });
});

test("colours are written only in the token file", () => {
  const raw: string[] = [];
  for (const { name, root } of sheets) {
    if (name === TOKENS) continue;
    root.walkDecls((decl) => {
      if (COLOUR.test(decl.value))
        raw.push(`${name}:${decl.source?.start?.line} ${decl.prop}: ${decl.value}`);
    });
  }
  expect(raw).toEqual([]);
});

test("the token file holds only custom properties on :root", () => {
  const tokens = sheets.find((sheet) => sheet.name === TOKENS)!.root;
  const stray: string[] = [];
  tokens.walkRules((rule) => {
    if (rule.selector !== ":root") stray.push(rule.selector);
  });
  tokens.walkDecls((decl) => {
    if (!decl.prop.startsWith("--") && decl.prop !== "color-scheme") stray.push(decl.prop);
  });
  expect(stray).toEqual([]);
});

test("every custom property a stylesheet uses is a token", () => {
  const defined = new Set<string>();
  for (const { root } of sheets) root.walkDecls(/^--/, (decl) => void defined.add(decl.prop));
  const unknown: string[] = [];
  for (const { name, root } of sheets) {
    root.walkDecls((decl) => {
      for (const [, prop] of decl.value.matchAll(/var\((--[\w-]+)/g)) {
        if (!defined.has(prop!)) unknown.push(`${name}:${decl.source?.start?.line} ${prop}`);
      }
    });
  }
  expect(unknown).toEqual([]);
});

function sources(dir = APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [readFileSync(path, "utf8")] : [];
  });
}

test("every class a stylesheet styles is used by a component (no dead styles)", () => {
  const code = sources().join("\n");
  const unused = new Set<string>();
  for (const { name, root } of sheets) {
    for (const rule of rules(root)) {
      for (const [, cls] of rule.selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) {
        if (!new RegExp(`[\\s"'\`{]${cls}[\\s"'\`}]`).test(code)) unused.add(`${name} .${cls}`);
      }
    }
  }
  expect([...unused]).toEqual([]);
});
