// The files that run on one database only because they never open the database under test.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { OPENS_DATABASE_UNDER_TEST, WITHOUT_DATABASE_UNDER_TEST } from "../helpers/projects";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("the integration files run once open no database under test; the pattern finds those that do", () => {
  for (const file of WITHOUT_DATABASE_UNDER_TEST) {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    expect(source, file).not.toMatch(OPENS_DATABASE_UNDER_TEST);
  }
  // The pattern is not blind: files that do open one match it.
  for (const file of ["events", "backup", "held-places", "two-nodes", "embedded-maintenance"]) {
    const source = fs.readFileSync(path.join(ROOT, `tests/integration/${file}.test.ts`), "utf8");
    expect(source, file).toMatch(OPENS_DATABASE_UNDER_TEST);
  }
});
