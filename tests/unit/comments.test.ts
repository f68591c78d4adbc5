// Comments say what the code does and why now (STYLE.md, "Comments and docs"): the story of how it
// got there, and the issue that asked for it, go to decisions and commit messages. A comment
// points to the decision that explains it ("(decision 058)"), never to an issue.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { readSource, sourceFilesUnder } from "../helpers/sources";

const FOLDERS = ["app", "server", "scripts"];

/** "issue 12", "Issue #12", "issues 38 and 39". */
const ISSUE = /\bissues?\s+#?\d+/i;

/** The comments of a code file or stylesheet: `// …` to the end of its line, and `/* … *\/`. */
function commentsOf(text: string): string[] {
  return text.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [];
}

function stylesheetsUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(PROJECT_ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".css"))
    .map((file) => `${dir}/${file.split(path.sep).join("/")}`);
}

test("no comment in app/, server/ or scripts/ names an issue", () => {
  const found: string[] = [];
  for (const dir of FOLDERS)
    for (const file of [...sourceFilesUnder(dir), ...stylesheetsUnder(dir)])
      for (const comment of commentsOf(readSource(file))) {
        const hit = comment.match(ISSUE);
        if (hit) found.push(`${file}: ${hit[0]}`);
      }
  expect(found).toEqual([]);
});

test("the check reads comments of every kind, and only issue numbers", () => {
  const named = (text: string) => commentsOf(text).some((comment) => ISSUE.test(comment));
  expect(named("const a = 1; // the waiting list (issue 35)")).toBe(true);
  expect(named("/**\n * Live results (Issues 38 and 39).\n */")).toBe(true);
  expect(named("{/* the door, issue #38 */}")).toBe(true);
  expect(named("/* Roles (issue 32): the team of an event */")).toBe(true);
  expect(named("// Live results (decision 058): one stream per competition.")).toBe(false);
  expect(named('const message = "issue 12"; // a string, not a comment')).toBe(false);
});
