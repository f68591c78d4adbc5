// The Firebase export fixtures (tests/fixtures/firebase), one file per export tool, dirty on purpose.
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";

export const fixture = (name: string) => path.join(PROJECT_ROOT, "tests/fixtures/firebase", name);

export const FIXTURE_FILES = [
  "users.json",
  "firestore-export-import.json",
  "node-firestore-import-export.json",
  "recursos-firefoo.json",
  "proyectos.json",
].map(fixture);

const TABLES = [
  "users",
  "sessions",
  "events",
  "event_images",
  "participations",
  "notes",
  "resources",
  "projects",
  "app_meta",
  "site_content",
  "upload_attempts",
  "role_grants",
  "audit_log",
  "staff_links",
  "payment_method",
  "payments",
  "competition_categories",
  "schools",
  "competition_teams",
  "team_members",
  "team_invitations",
  "judging_runs",
  "bracket_draws",
  "bracket_rounds",
  "score_sheets",
  "team_inspections",
  "award_certificates",
];

/** Every row of every table, as JSON text in a stable order: equal snapshots, equal data. */
export async function snapshotTables(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  // Timestamps print in the session's time zone: the same one on both sides of a comparison.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local time zone 'UTC'`);
    for (const table of TABLES) {
      const result = await tx.execute(
        sql.raw(`select row_to_json(t)::text as row from "${table}" t order by 1`),
      );
      out[table] = rowsOf<{ row: string }>(result).map((r) => r.row);
    }
  });
  return out;
}
