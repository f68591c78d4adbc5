// Competitions: categories, schools, teams, their members, inspections and invitations
// (app/competitions).
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { events } from "./events.server";
import { users } from "./members.server";

/**
 * A competition's categories (decision 051): an event with at least one is a competition. Each is
 * one contest teams register in (the next issue's `competition_teams` will reference it, so that
 * a category with teams cannot be deleted). `position` orders them on the event's page; the
 * deadline is an instant (typed in SITE_TIMEZONE); the fee is in centavos as an event's price.
 */
export const competitionCategories = pgTable(
  "competition_categories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    level: text("level").notNull(),
    minMembers: integer("min_members").notNull(),
    maxMembers: integer("max_members").notNull(),
    coachRequired: boolean("coach_required").notNull(),
    robotRules: text("robot_rules").notNull().default(""),
    maxWeightGrams: integer("max_weight_grams"),
    maxSizeCm: integer("max_size_cm"),
    /** Teams; null means no limit. */
    capacity: integer("capacity"),
    feeCents: integer("fee_cents").notNull().default(0),
    registrationClosesAt: timestamp("registration_closes_at", { withTimezone: true }).notNull(),
    /**
     * When the category starts on competition day (decision 055): robots are inspected until
     * then. Null: the event's start.
     */
    startsAt: timestamp("starts_at", { withTimezone: true }),
    /** How it is judged (the next issue): a time trial, a bracket or a score sheet. */
    format: text("format").notNull(),
    // How it is judged (decisions 053 and 057): the tie rule (null: the format's default), how
    // many runs a time trial counts, a score sheet's criteria ({id, name, max}), and whether the
    // organisers marked its results final (then no entry is taken until they reopen it).
    tieRule: text("tie_rule"),
    attempts: integer("attempts").notNull().default(3),
    criteria: jsonb("criteria")
      .$type<Array<{ id: string; name: string; max: number }>>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    finalAt: timestamp("final_at", { withTimezone: true }),
    finalBy: uuid("final_by").references(() => users.id, { onDelete: "set null" }),
    finalByName: text("final_by_name"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [
    index("competition_categories_event_id_position_idx").on(t.eventId, t.position),
    // The target of the teams' (category, event) reference and of a judge's grant (role_grants):
    // a team's event, and a judge's, is their category's.
    unique("competition_categories_id_event_key").on(t.id, t.eventId),
    check(
      "competition_categories_tie_rule_check",
      sql`${t.tieRule} is null or ${t.tieRule} in ('segundo-tiempo', 'menos-penalizaciones', 'compartido', 'tercer-puesto', 'tercero-compartido', 'primer-criterio', 'mejor-nota')`,
    ),
    check("competition_categories_attempts_check", sql`${t.attempts} between 1 and 10`),
    uniqueIndex("competition_categories_event_name_key").on(t.eventId, sql`lower(${t.name})`),
    check(
      "competition_categories_level_check",
      sql`${t.level} in ('primaria', 'secundaria', 'universidad', 'abierta')`,
    ),
    check(
      "competition_categories_format_check",
      sql`${t.format} in ('tiempo', 'llaves', 'puntaje')`,
    ),
    check(
      "competition_categories_members_check",
      sql`${t.minMembers} between 1 and 10 and ${t.maxMembers} between ${t.minMembers} and 10`,
    ),
    check(
      "competition_categories_limits_check",
      sql`(${t.maxWeightGrams} is null or ${t.maxWeightGrams} between 1 and 1000000) and (${t.maxSizeCm} is null or ${t.maxSizeCm} between 1 and 1000)`,
    ),
    check(
      "competition_categories_capacity_check",
      sql`${t.capacity} is null or ${t.capacity} between 1 and 100000`,
    ),
    check("competition_categories_fee_check", sql`${t.feeCents} between 0 and 10000000`),
  ],
);

export type CompetitionCategory = typeof competitionCategories.$inferSelect;

/**
 * The schools and universities teams come from (decision 052): picked by name as a team is
 * registered, or added then. An admin merges duplicates ("San Calixto" into "Colegio San
 * Calixto"). No personal data.
 */
export const schools = pgTable(
  "schools",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("schools_name_key").on(sql`lower(${t.name})`),
    check("schools_name_check", sql`char_length(${t.name}) between 1 and 120`),
  ],
);

export type School = typeof schools.$inferSelect;

/**
 * A team registered in a category (decision 052). The category is referenced without cascade, so
 * a category with teams cannot be deleted; the event's deletion takes its teams (event_id
 * cascades in the same statement). 'withdrawn' teams stay as a record (their members go), and
 * free their name and place. The captain is a member; the coach is not (an adult who confirmed).
 */
export const competitionTeams = pgTable(
  "competition_teams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    // With event_id, references its category (id, event_id) without cascade: see the table's
    // foreign key below.
    categoryId: uuid("category_id").notNull(),
    name: text("name").notNull(),
    schoolId: uuid("school_id")
      .notNull()
      .references(() => schools.id),
    city: text("city").notNull(),
    robotName: text("robot_name").notNull(),
    /** An uploaded image's path (/imagenes/…), as event images are kept. */
    robotPhoto: text("robot_photo"),
    captainId: uuid("captain_id").references(() => users.id, { onDelete: "set null" }),
    coachId: uuid("coach_id").references(() => users.id, { onDelete: "set null" }),
    coachConfirmedAt: timestamp("coach_confirmed_at", { withTimezone: true }),
    status: text("status").notNull().default("pending"),
    reviewReason: text("review_reason"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedByName: text("reviewed_by_name"),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: "competition_teams_category_event_fk",
      columns: [t.categoryId, t.eventId],
      foreignColumns: [competitionCategories.id, competitionCategories.eventId],
    }),
    // The target of the members' (team, category) reference.
    unique("competition_teams_id_category_key").on(t.id, t.categoryId),
    uniqueIndex("competition_teams_category_name_key")
      .on(t.categoryId, sql`lower(${t.name})`)
      .where(sql`${t.status} <> 'withdrawn'`),
    index("competition_teams_event_id_idx").on(t.eventId),
    index("competition_teams_school_id_idx").on(t.schoolId),
    index("competition_teams_captain_id_idx").on(t.captainId),
    index("competition_teams_coach_id_idx").on(t.coachId),
    check(
      "competition_teams_status_check",
      sql`${t.status} in ('waiting', 'pending', 'approved', 'rejected', 'withdrawn')`,
    ),
    check(
      "competition_teams_text_check",
      sql`char_length(${t.name}) between 1 and 60 and char_length(${t.city}) between 1 and 60 and char_length(${t.robotName}) between 1 and 60 and (${t.reviewReason} is null or char_length(${t.reviewReason}) <= 500)`,
    ),
    check(
      "competition_teams_robot_photo_check",
      sql`${t.robotPhoto} is null or ${t.robotPhoto} ~ '^/imagenes/[0-9a-f]{32}-[0-9]+\\.webp$'`,
    ),
  ],
);

export type CompetitionTeam = typeof competitionTeams.$inferSelect;

/** A team's members (the captain among them); a person is in at most one team per category. */
export const teamMembers = pgTable(
  "team_members",
  {
    // With category_id, references its team (id, category_id), cascading: see below.
    teamId: uuid("team_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The team's category, kept here so that one person is in one team per category. */
    categoryId: uuid("category_id").notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.userId] }),
    foreignKey({
      name: "team_members_team_category_fk",
      columns: [t.teamId, t.categoryId],
      foreignColumns: [competitionTeams.id, competitionTeams.categoryId],
    }).onDelete("cascade"),
    uniqueIndex("team_members_category_user_key").on(t.categoryId, t.userId),
    index("team_members_user_id_idx").on(t.userId),
  ],
);

/**
 * A robot's inspection (homologación) at the door (decision 055): passed or failed with notes, by
 * door staff or an organiser. A failed robot may be inspected again until its category starts;
 * every try stays, and the latest decides. The inspector's name is kept as typed then, and
 * becomes 'cuenta eliminada' when their account goes.
 */
export const teamInspections = pgTable(
  "team_inspections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    result: text("result").notNull(),
    notes: text("notes").notNull().default(""),
    inspectedBy: uuid("inspected_by").references(() => users.id, { onDelete: "set null" }),
    inspectedByName: text("inspected_by_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("team_inspections_team_id_created_at_idx").on(t.teamId, t.createdAt),
    index("team_inspections_inspected_by_idx").on(t.inspectedBy),
    check("team_inspections_result_check", sql`${t.result} in ('passed', 'failed')`),
    check("team_inspections_notes_check", sql`char_length(${t.notes}) <= 500`),
  ],
);

/**
 * A team's invitation (decision 052): a code of 16 characters of Crockford's base32 (80 bits),
 * the link /equipos/unirse/<code>. One live per team, for its members and its coach: it serves
 * until the category's deadline or until the captain makes a new one (the old one is then
 * revoked); members join only while the team has room.
 */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    teamId: uuid("team_id")
      .notNull()
      .references(() => competitionTeams.id, { onDelete: "cascade" }),
    code: text("code").notNull().unique(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("team_invitations_team_id_idx").on(t.teamId),
    check("team_invitations_code_check", sql`${t.code} ~ '^[0-9A-HJKMNP-TV-Z]{16}$'`),
  ],
);
