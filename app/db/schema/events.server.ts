// Events: events and their course sessions, pictures, staff links, participations and the waiting
// list (app/events).
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { TIPOS_EVENTO } from "~/kernel/limits";
import { createdAt, linkList } from "./columns.server";
import { users } from "./members.server";

type TipoEvento = (typeof TIPOS_EVENTO)[number];

/**
 * eventos. `startsAt` is fechaEvento + horaEvento in SITE_TIMEZONE, kept for ordering; `endsAt`
 * is when the event is over (its state, app/events/event.server.ts `eventState`), always after
 * the start (decision 030).
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    nombreEvento: text("nombre_evento").notNull(),
    ubicacionEvento: text("ubicacion_evento").notNull(),
    tipoEvento: text("tipo_evento").$type<TipoEvento>().notNull().default("Presencial"),
    enlacesVirtuales: linkList("enlaces_virtuales"),
    fechaEvento: date("fecha_evento", { mode: "string" }).notNull(),
    horaEvento: time("hora_evento").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    imagenEnlace: text("imagen_enlace").notNull(),
    ubicacionEspecifica: text("ubicacion_especifica"),
    descripcion: text("descripcion").notNull(),
    /** Seats; null means unlimited. Joins beyond it go to the waiting list (event_waitlist). */
    capacity: integer("capacity"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    publishedBy: uuid("published_by").references(() => users.id, { onDelete: "set null" }),
    publishedByName: text("published_by_name").notNull(),
    firebaseId: text("firebase_id").unique(),
    /** Door staff may check people in from this many hours before the start (decision 038). */
    doorHoursBefore: integer("door_hours_before").notNull().default(3),
    /** … to this many hours after the end. */
    doorHoursAfter: integer("door_hours_after").notNull().default(6),
    /**
     * The share of its sessions not cancelled (an integer percent, 1–100) a participant must have
     * attended to earn the certificate (decision 044); null when the event gives no certificate,
     * as a weekly club's (decision 045).
     */
    certificateShare: integer("certificate_share").default(75),
    /**
     * The price in whole centavos of boliviano (decision 048); 0, the default, is a free event.
     * Typed as people write it ('30', '30,50') and shown as 'Bs 30,50'.
     */
    priceCents: integer("price_cents").notNull().default(0),
    /** How long a place taken at a paid event is held for its payment, in hours (decision 048). */
    holdHours: integer("hold_hours").notNull().default(48),
    /**
     * The event's group chat (a WhatsApp group's invitation, or any https link), shown only to
     * those with a place, after joining and in their mails (decision 047).
     */
    chatLink: text("chat_link"),
  },
  (t) => [
    index("events_starts_at_idx").on(t.startsAt),
    index("events_ends_at_idx").on(t.endsAt),
    check("events_ends_after_start_check", sql`${t.endsAt} > ${t.startsAt}`),
    check("events_tipo_evento_check", sql`${t.tipoEvento} in ('Presencial', 'Virtual', 'Hibrido')`),
    check("events_capacity_check", sql`${t.capacity} is null or ${t.capacity} >= 1`),
    check(
      "events_door_hours_check",
      sql`${t.doorHoursBefore} between 0 and 72 and ${t.doorHoursAfter} between 0 and 72`,
    ),
    check("events_certificate_share_check", sql`${t.certificateShare} between 1 and 100`),
    check("events_price_cents_check", sql`${t.priceCents} between 0 and 10000000`),
    check("events_hold_hours_check", sql`${t.holdHours} between 1 and 720`),
  ],
);

export type Event = typeof events.$inferSelect;

/**
 * One session of an event (docs/decisions/043-event-sessions.md): a course's class, a club's
 * meeting. Every event has at least one; the event's own starts_at / ends_at are those of its first
 * and last session that is not cancelled, kept so in the transaction that changes a session. A
 * session may have its own place (text) or link; a cancelled one stays, with when it was
 * cancelled, so that its id (and the calendars' UID made from it) never comes back for another.
 * The session an event is created with, and the one the migration gave every event, has the
 * event's own id, so the calendars' UID of an event published before sessions did not change.
 */
export const eventSessions = pgTable(
  "event_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    place: text("place"),
    link: text("link"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("event_sessions_event_id_starts_at_idx").on(t.eventId, t.startsAt),
    check("event_sessions_ends_after_start_check", sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

export type EventSession = typeof eventSessions.$inferSelect;

/** An event's galleryImages, one row per image so that each can be removed on its own. */
export const eventImages = pgTable(
  "event_images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("event_images_event_id_idx").on(t.eventId, t.position)],
);

/**
 * A door-staff link of one event (docs/decisions/041-staff-links.md): whoever opens it on a phone
 * may check people in at that event, within its door hours, until it expires or is revoked. Only
 * the SHA-256 of its token is kept; the link itself is shown once, when it is made. The creator's
 * name is kept as the audit log keeps it ('cuenta eliminada' once their account is deleted).
 */
export const staffLinks = pgTable(
  "staff_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("staff_links_event_id_idx").on(t.eventId),
    index("staff_links_created_by_idx").on(t.createdBy),
  ],
);

export type StaffLink = typeof staffLinks.$inferSelect;

/** participations: one row per (member, event), with the time of joining. */
export const participations = pgTable(
  "participations",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
    /** When an admin marked the member present at the door; null: registered only. */
    checkedInAt: timestamp("checked_in_at", { withTimezone: true }),
    /** The admin who marked them present first (at the door or on the participants page). */
    checkedInBy: uuid("checked_in_by").references(() => users.id, { onDelete: "set null" }),
    /** The staff link they were marked present through, when it was one (decision 041). */
    checkedInByLink: uuid("checked_in_by_link").references(() => staffLinks.id, {
      onDelete: "set null",
    }),
    /**
     * The code of this participation's certificate of attendance (/certificados/{code}): 12
     * characters of Crockford's base32 from the database's random source, made with the row and
     * never changed (docs/decisions/020-certificates.md). It proves something only once the
     * member was checked in and the event has ended.
     */
    /**
     * Whether this participation takes one of the event's seats (a registration). False: a
     * competitor's (decision 055), made when the door checks in a member or coach of an approved
     * team who had not registered; it counts for attendance and certificates, never for seats.
     */
    seat: boolean("seat").notNull().default(true),
    certificateCode: text("certificate_code")
      .notNull()
      .unique()
      .default(sql`ayllu_certificate_code()`),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.eventId] }),
    index("participations_event_id_idx").on(t.eventId),
    check(
      "participations_certificate_code_format",
      sql`${t.certificateCode} ~ '^[0-9A-HJKMNP-TV-Z]{12}$'`,
    ),
  ],
);

/**
 * The waiting list of a full event, in order of arrival. `createdAt` is the clock at the insert
 * (not the transaction's start), taken while the event row is locked, so it orders arrivals.
 */
export const eventWaitlist = pgTable(
  "event_waitlist",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId] }),
    index("event_waitlist_order_idx").on(t.eventId, t.createdAt, t.userId),
    index("event_waitlist_user_id_idx").on(t.userId),
  ],
);
