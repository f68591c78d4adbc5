// Attendance: who came to each course session, and the sessions a participant skips
// (app/attendance).
import { foreignKey, index, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { eventSessions, participations, staffLinks } from "./events.server";
import { users } from "./members.server";

/**
 * Who attended which session (decision 044): one row per (session, member), written by the
 * check-in at the door into the session under way. It belongs to the participation: leaving the
 * event or deleting the account removes it, and so does deleting the event (through both).
 * `participations.checked_in_at` stays the first of these times, for every reader that asks
 * whether someone came at all.
 */
export const sessionAttendance = pgTable(
  "session_attendance",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => eventSessions.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    userId: uuid("user_id").notNull(),
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }).notNull(),
    checkedInBy: uuid("checked_in_by").references(() => users.id, { onDelete: "set null" }),
    checkedInByLink: uuid("checked_in_by_link").references(() => staffLinks.id, {
      onDelete: "set null",
    }),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.userId] }),
    index("session_attendance_event_id_user_id_idx").on(t.eventId, t.userId),
    foreignKey({
      name: "session_attendance_participation_fk",
      columns: [t.userId, t.eventId],
      foreignColumns: [participations.userId, participations.eventId],
    }).onDelete("cascade"),
  ],
);

/**
 * The sessions a participant said they will miss (decision 045): no reminder for those, and the
 * organisers see how many will not come. It belongs to the participation, as attendance does.
 */
export const sessionSkips = pgTable(
  "session_skips",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => eventSessions.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").notNull(),
    userId: uuid("user_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.userId] }),
    index("session_skips_event_id_user_id_idx").on(t.eventId, t.userId),
    foreignKey({
      name: "session_skips_participation_fk",
      columns: [t.userId, t.eventId],
      foreignColumns: [participations.userId, participations.eventId],
    }).onDelete("cascade"),
  ],
);
