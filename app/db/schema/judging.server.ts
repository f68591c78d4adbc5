// Competition day: what judges enter, and the award certificates (app/competitions/judging,
// decisions 057-060).
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { competitionCategories, competitionTeams } from "./competitions.server";
import { users } from "./members.server";

// ——— Competition day (decision 057): what judges enter, each row as typed ———
//
// Every entry has a state: 'standing' (the one that counts; at most one per run, round or sheet),
// 'conflict' (a different second entry, waiting for the category's organisers), 'replaced' (a
// standing entry an organiser corrected, or a conflict they accepted in its place) or 'rejected' (a
// conflict the organisers turned down). Who entered it is kept by id and by name ('cuenta
// eliminada' once the account goes); `client_entry_id` makes a resend from a phone idempotent.

const entryColumns = () => ({
  state: text("state").notNull().default("standing"),
  enteredBy: uuid("entered_by").references(() => users.id, { onDelete: "set null" }),
  enteredByName: text("entered_by_name").notNull(),
  enteredAt: timestamp("entered_at", { withTimezone: true }).notNull().defaultNow(),
  clientEntryId: text("client_entry_id"),
  decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
  decidedByName: text("decided_by_name"),
  decidedAt: timestamp("decided_at", { withTimezone: true }),
});

const entryChecks = (
  table: string,
  t: { state: unknown; clientEntryId: unknown; categoryId: unknown },
) => [
  check(
    `${table}_state_check`,
    sql`${t.state} in ('standing', 'conflict', 'replaced', 'rejected')`,
  ),
  check(
    `${table}_client_entry_id_check`,
    sql`${t.clientEntryId} is null or ${t.clientEntryId} ~ '^[A-Za-z0-9_-]{8,64}$'`,
  ),
  uniqueIndex(`${table}_client_entry_key`)
    .on(t.categoryId as never, t.clientEntryId as never)
    .where(sql`${t.clientEntryId} is not null`),
];

/** A time trial's runs: a team's attempt, its time (null: did not finish) and penalties. */
export const judgingRuns = pgTable(
  "judging_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => competitionCategories.id, { onDelete: "cascade" }),
    teamId: uuid("team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    timeMs: integer("time_ms"),
    penaltyMs: integer("penalty_ms").notNull().default(0),
    ...entryColumns(),
  },
  (t) => [
    ...entryChecks("judging_runs", t),
    uniqueIndex("judging_runs_standing_key")
      .on(t.categoryId, t.teamId, t.attempt)
      .where(sql`${t.state} = 'standing'`),
    index("judging_runs_team_id_idx").on(t.teamId),
    index("judging_runs_entered_by_idx").on(t.enteredBy),
    check(
      "judging_runs_values_check",
      sql`${t.attempt} between 1 and 10 and (${t.timeMs} is null or ${t.timeMs} between 1 and 3600000) and ${t.penaltyMs} between 0 and 600000`,
    ),
  ],
);

/**
 * A bracket's draw: the teams in seed order (best first), set by an organiser ('siembra') or
 * drawn ('sorteo') from the recorded 32-bit number, which draws the same order again.
 */
export const bracketDraws = pgTable(
  "bracket_draws",
  {
    categoryId: uuid("category_id")
      .primaryKey()
      .references(() => competitionCategories.id, { onDelete: "cascade" }),
    method: text("method").notNull(),
    seed: bigint("seed", { mode: "number" }),
    teamIds: uuid("team_ids").array().notNull(),
    madeBy: uuid("made_by").references(() => users.id, { onDelete: "set null" }),
    madeByName: text("made_by_name").notNull(),
    madeAt: timestamp("made_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("bracket_draws_made_by_idx").on(t.madeBy),
    check(
      "bracket_draws_method_check",
      sql`(${t.method} = 'sorteo' and ${t.seed} between 0 and 4294967295) or (${t.method} = 'siembra' and ${t.seed} is null)`,
    ),
  ],
);

/** A bracket match's rounds: the winner of round 1, 2 or 3 of a match ("r1-0", "tercer-puesto"). */
export const bracketRounds = pgTable(
  "bracket_rounds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => competitionCategories.id, { onDelete: "cascade" }),
    matchKey: text("match_key").notNull(),
    round: integer("round").notNull(),
    winnerTeamId: uuid("winner_team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    ...entryColumns(),
  },
  (t) => [
    ...entryChecks("bracket_rounds", t),
    uniqueIndex("bracket_rounds_standing_key")
      .on(t.categoryId, t.matchKey, t.round)
      .where(sql`${t.state} = 'standing'`),
    index("bracket_rounds_winner_team_id_idx").on(t.winnerTeamId),
    index("bracket_rounds_entered_by_idx").on(t.enteredBy),
    check(
      "bracket_rounds_values_check",
      sql`${t.round} between 1 and 3 and ${t.matchKey} ~ '^(r[0-9]{1,2}-[0-9]{1,4}|tercer-puesto)$'`,
    ),
  ],
);

/** A judge's score sheet for a team: points per criterion, in hundredths ({criterionId: 1250}). */
export const scoreSheets = pgTable(
  "score_sheets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => competitionCategories.id, { onDelete: "cascade" }),
    teamId: uuid("team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    judgeId: uuid("judge_id").references(() => users.id, { onDelete: "set null" }),
    judgeName: text("judge_name").notNull(),
    points: jsonb("points").$type<Record<string, number>>().notNull(),
    ...entryColumns(),
  },
  (t) => [
    ...entryChecks("score_sheets", t),
    uniqueIndex("score_sheets_standing_key")
      .on(t.categoryId, t.teamId, t.judgeId)
      .where(sql`${t.state} = 'standing'`),
    index("score_sheets_team_id_idx").on(t.teamId),
    index("score_sheets_judge_id_idx").on(t.judgeId),
    index("score_sheets_entered_by_idx").on(t.enteredBy),
  ],
);

/**
 * The code of a competitor's certificate by place (decision 060): one per member of a
 * team placed in a final category, made the first time anyone needs it (the organisers' screen,
 * the member's profile, a download) and never changed. The place it states is not stored: it is
 * the category's final ranking when it is read, and the code proves nothing while the category is
 * reopened. Deleting the member, the team or the category takes it.
 */
export const awardCertificates = pgTable(
  "award_certificates",
  {
    code: text("code")
      .primaryKey()
      .default(sql`ayllu_certificate_code()`),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => competitionCategories.id, { onDelete: "cascade" }),
    teamId: uuid("team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("award_certificates_category_user_key").on(t.categoryId, t.userId),
    index("award_certificates_team_id_idx").on(t.teamId),
    index("award_certificates_user_id_idx").on(t.userId),
    check("award_certificates_code_format", sql`${t.code} ~ '^[0-9A-HJKMNP-TV-Z]{12}$'`),
  ],
);

export type AwardCertificate = typeof awardCertificates.$inferSelect;

export type JudgingRun = typeof judgingRuns.$inferSelect;
export type BracketRound = typeof bracketRounds.$inferSelect;
export type ScoreSheet = typeof scoreSheets.$inferSelect;
