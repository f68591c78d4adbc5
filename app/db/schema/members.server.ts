// Members: accounts, sign-in sessions, sign-in attempts and links (app/members).
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { GENEROS } from "~/kernel/limits";
import { createdAt } from "./columns.server";

type Genero = (typeof GENEROS)[number];

/** A member's profile (usuarios). `id` is the specification's uid. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Identity is (issuer, subject) from the ID token, never the e-mail.
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    displayName: text("display_name"),
    /** The provider's photo, taken at the first sign-in. */
    photoURL: text("photo_url"),
    /** A photo the member uploaded on /profile (an /imagenes/… path); shown instead of the provider's. */
    ownPhotoUrl: text("own_photo_url"),
    isAdmin: boolean("is_admin").notNull().default(false),
    nombreCompleto: text("nombre_completo"),
    fechaNacimiento: date("fecha_nacimiento", { mode: "string" }),
    pais: text("pais"),
    ciudad: text("ciudad"),
    genero: text("genero").$type<Genero>(),
    habilidades: text("habilidades").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    // Members brought over from Firebase (npm run import): their Firebase uid, and the Google
    // subject of their Firebase Auth account, by which they re-link at first sign-in.
    firebaseUid: text("firebase_uid").unique(),
    firebaseGoogleSubject: text("firebase_google_subject").unique(),
    /** SHA-256 of the secret in the member's private calendar link; null until they ask for one. */
    calendarTokenHash: text("calendar_token_hash").unique(),
    /**
     * The secret of the member's unsubscribe links (docs/decisions/021-mail.md): 64 random hex
     * digits, made with the row. It is in every mail, so it is kept as it is, not hashed.
     */
    mailToken: text("mail_token")
      .notNull()
      .unique()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    /** The kinds of mail (MAIL_TOPICS) the member turned off. */
    mailOff: text("mail_off")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    uniqueIndex("users_issuer_subject_key").on(t.issuer, t.subject),
    index("users_email_idx").on(sql`lower(${t.email})`),
    index("users_created_at_idx").on(t.createdAt),
    check(
      "users_genero_check",
      sql`${t.genero} is null or ${t.genero} in ('Masculino', 'Femenino', 'Otro')`,
    ),
    check("users_habilidades_length", sql`char_length(${t.habilidades}) <= 30`),
  ],
);

export type User = typeof users.$inferSelect;

/** A signed-in browser. The cookie holds a random token; the row holds only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("sessions_user_id_idx").on(t.userId),
    index("sessions_expires_at_idx").on(t.expiresAt),
  ],
);

/**
 * The sign-in attempts of one client address in the current minute (LOGIN_RATE_LIMIT): a fixed
 * window counted here, in one statement per attempt, so that the limit holds however many
 * processes and machines serve the site (docs/decisions/031-limits-and-jobs-across-nodes.md).
 * Rows whose window has ended are deleted by a job every few minutes.
 */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    /** The client's address as the rate limit keys it (an IPv6 address by its /56). */
    client: text("client").primaryKey(),
    hits: integer("hits").notNull(),
    resetsAt: timestamp("resets_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sign_in_attempts_resets_at_idx").on(t.resetsAt)],
);

/**
 * A sign-in link sent by e-mail ('Recibir un enlace por correo', docs/decisions/034-sign-in-by-link.md):
 * only the SHA-256 of the link's secret and of the requesting browser's nonce are kept. A row is
 * deleted when the link is used, and rows past their expiry at the next request of a link. It
 * names an address, not a member (the address may have no account yet); backups leave it out.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** The address the link was sent to, trimmed and in lower case. */
    email: text("email").notNull(),
    /** SHA-256 of the nonce in the requesting browser's cookie. */
    browserHash: text("browser_hash").notNull(),
    /** Where to go after signing in (a path on this site), if the person was going somewhere. */
    redirectTo: text("redirect_to"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sign_in_links_expires_at_idx").on(t.expiresAt)],
);
