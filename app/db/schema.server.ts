// Every entity of the specification (§3). Property names are the specification's own words;
// columns are their snake_case forms (docs/decisions/002-naming.md).
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  foreignKey,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { GENEROS, TIPOS_EVENTO } from "~/kernel/limits";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const linkList = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

type Genero = (typeof GENEROS)[number];

type TipoEvento = (typeof TIPOS_EVENTO)[number];

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
 * A member's upload in the last minute, for the per-minute limit (UPLOADS_PER_MINUTE,
 * docs/decisions/028-image-decoding-bound.md): counted here so that it holds across processes and
 * machines. Rows older than a minute are deleted at the next upload, so the table holds about a
 * minute of uploads.
 */
export const uploadAttempts = pgTable(
  "upload_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("upload_attempts_user_id_created_at_idx").on(t.userId, t.createdAt)],
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
 * The site's backups into its backup folder (BACKUP_DIR: the nightly one and `./ayllu backup`),
 * for the admins' Diagnóstico page: when, how big, whether the copy reached the bucket. A record
 * of this machine's folder, not of the site's content: backups leave it out
 * (server/backup/backup.server.ts).
 */
export const backupRuns = pgTable("backup_runs", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** The file's name inside BACKUP_DIR. */
  file: text("file").notNull(),
  bytes: bigint("bytes", { mode: "number" }),
  /** The s3:// address it was copied to, when object storage is configured and the copy worked. */
  bucketCopy: text("bucket_copy"),
  /** Why it failed (the backup, or only its copy to the bucket). */
  error: text("error"),
});

/**
 * The background jobs run on a timer (session sweep, upload sweep, …): a process runs one only
 * after claiming its next run here, so that one run happens across all processes and machines
 * (docs/decisions/031-limits-and-jobs-across-nodes.md).
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  /** No process may claim a run before this. */
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
  runs: bigint("runs", { mode: "number" }).notNull().default(0),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }),
  /** The process that claimed the last run (host name and process id). */
  lastNode: text("last_node"),
});

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

/**
 * The site's way to be paid (decision 048): one row, set by an admin or a treasurer. The QR is the
 * static one the community's bank app produces, kept lossless as a PNG in the private store
 * (app/uploads/private-storage.server.ts) under `qr_file`; `qr_expires_on` is the date the bank
 * prints on it, when it has one.
 */
export const paymentMethod = pgTable(
  "payment_method",
  {
    id: text("id").primaryKey().default("site"),
    qrFile: text("qr_file"),
    qrUploadedAt: timestamp("qr_uploaded_at", { withTimezone: true }),
    qrExpiresOn: date("qr_expires_on", { mode: "string" }),
    accountHolder: text("account_holder").notNull().default(""),
    bank: text("bank").notNull().default(""),
    instructions: text("instructions").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    check("payment_method_one_row_check", sql`${t.id} = 'site'`),
    check(
      "payment_method_qr_file_check",
      sql`${t.qrFile} is null or ${t.qrFile} ~ '^[0-9a-f]{32}\\.png$'`,
    ),
  ],
);

export type PaymentMethod = typeof paymentMethod.$inferSelect;

/**
 * A payment (decision 048) for a payable subject: a member's registration at a paid event, or
 * (the competition's issue) a team. `status`: 'pending' — the place is held until `held_until`;
 * 'submitted' — a receipt or a transaction number came, the place is held until a treasurer
 * decides; 'refused' — a treasurer refused what came, with a reason, and the place is held again
 * until `held_until`; 'confirmed', 'waived' (a grant: nothing to pay); 'expired' (the hold ran
 * out, the place went to the next person waiting); 'cancelled' (the member left before paying);
 * 'refunded' (they left after paying and got the money back). A row is never deleted but with its
 * event, or with its member's account when it took no money: it is the record of the money.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subjectKind: text("subject_kind").notNull().default("registration"),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /**
     * Who pays: the registered member (for a team, its captain). Null once they deleted their
     * account: a payment that took money (confirmed or refunded) stays as the community's record
     * of it, without the person; the others go with the account (app/member-data.server.ts).
     */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The team paid for, when the subject is a team; null for a registration. */
    teamId: uuid("team_id"),
    /**
     * What the payer writes in the transfer's description: 8 characters of Crockford's base32 (no
     * I, L, O or U), from the database's random source, as the certificates' codes are made.
     */
    reference: text("reference")
      .notNull()
      .unique()
      .default(sql`ayllu_payment_reference()`),
    amountCents: integer("amount_cents").notNull(),
    status: text("status").notNull().default("pending"),
    /** Until when the place is held while nothing has been sent ('pending'). */
    heldUntil: timestamp("held_until", { withTimezone: true }),
    /**
     * The receipt in the private store: a photo as JPEG or PNG, a PDF's pages drawn as one JPEG,
     * or a PDF kept as sent before decision 061.
     */
    receiptFile: text("receipt_file"),
    transactionNumber: text("transaction_number"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    /** The treasurer's (or admin's) last decision: confirmed, refused, waived. */
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    /** Their name as it was, kept as the audit log keeps it. */
    decidedByName: text("decided_by_name"),
    /** Why it was refused, in the treasurer's words: the member reads it. */
    refusalReason: text("refusal_reason"),
    /** When the member left the event after paying (the place freed; a refund may be due). */
    leftAt: timestamp("left_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundedBy: uuid("refunded_by").references(() => users.id, { onDelete: "set null" }),
    refundNote: text("refund_note"),
    createdAt: createdAt(),
  },
  (t) => [
    // One live payment per registration: the history (expired, cancelled) stays beside it.
    uniqueIndex("payments_registration_live_key")
      .on(t.eventId, t.userId)
      .where(
        sql`${t.subjectKind} = 'registration' and ${t.status} in ('pending', 'submitted', 'refused', 'confirmed', 'waived')`,
      ),
    index("payments_user_id_idx").on(t.userId),
    index("payments_status_held_until_idx").on(t.status, t.heldUntil),
    check("payments_subject_kind_check", sql`${t.subjectKind} in ('registration', 'team')`),
    check(
      "payments_payer_check",
      sql`${t.userId} is not null or ${t.status} in ('confirmed', 'refunded')`,
    ),
    check(
      "payments_subject_check",
      sql`(${t.subjectKind} = 'registration') = (${t.teamId} is null)`,
    ),
    check(
      "payments_status_check",
      sql`${t.status} in ('pending', 'submitted', 'refused', 'confirmed', 'waived', 'expired', 'cancelled', 'refunded')`,
    ),
    check("payments_amount_check", sql`${t.amountCents} between 0 and 10000000`),
    check("payments_reference_format", sql`${t.reference} ~ '^[0-9A-HJKMNP-TV-Z]{8}$'`),
    check(
      "payments_receipt_file_check",
      sql`${t.receiptFile} is null or ${t.receiptFile} ~ '^[0-9a-f]{32}\\.(png|jpg|pdf)$'`,
    ),
  ],
);

export type Payment = typeof payments.$inferSelect;

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
 * The code of a competitor's certificate by place (issue 39, decision 060): one per member of a
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

/**
 * A role given to a member (decision 038): its kind (ROLE_KINDS in app/kernel/permissions.ts)
 * and, for kinds scoped to one event, that event. What each kind may do is the capability table
 * there, never a column here.
 */
export const roleGrants = pgTable(
  "role_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    eventId: uuid("event_id").references(() => events.id, { onDelete: "cascade" }),
    /** A judge's category (decision 057), always with its event: the pair references the category. */
    categoryId: uuid("category_id"),
    grantedBy: uuid("granted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("role_grants_user_kind_event_category_key")
      .on(t.userId, t.kind, t.eventId, t.categoryId)
      .nullsNotDistinct(),
    index("role_grants_event_id_idx").on(t.eventId),
    foreignKey({
      name: "role_grants_category_fk",
      columns: [t.categoryId, t.eventId],
      foreignColumns: [competitionCategories.id, competitionCategories.eventId],
    }).onDelete("cascade"),
    check(
      "role_grants_category_check",
      sql`(${t.kind} = 'judge') = (${t.categoryId} is not null and ${t.eventId} is not null)`,
    ),
  ],
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

const publisher = () => ({
  publisher: uuid("publisher").references(() => users.id, { onDelete: "set null" }),
  publisherName: text("publisher_name").notNull(),
  /** The Firestore document id of imported publications (npm run import). */
  firebaseId: text("firebase_id").unique(),
});

/** notas */
export const notes = pgTable(
  "notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    texto: text("texto").notNull(),
    enlaceImagen: text("enlace_imagen"),
    enlacesAdicionales: linkList("enlaces_adicionales"),
    createdAt: createdAt(),
    ...publisher(),
  },
  (t) => [index("notes_created_at_idx").on(t.createdAt)],
);

/** recursos */
export const resources = pgTable(
  "resources",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    subtitulos: text("subtitulos").notNull().default(""),
    texto: text("texto").notNull(),
    enlacesImagenes: linkList("enlaces_imagenes"),
    enlacesVideos: linkList("enlaces_videos"),
    enlacesWeb: linkList("enlaces_web"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    ...publisher(),
  },
  (t) => [index("resources_created_at_idx").on(t.createdAt)],
);

/** proyectos */
export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    titulo: text("titulo").notNull(),
    descripcion: text("descripcion").notNull(),
    enlacesVideo: linkList("enlaces_video"),
    enlacesImagen: linkList("enlaces_imagen"),
    enlacesWeb: linkList("enlaces_web"),
    enlacesDocumentacion: linkList("enlaces_documentacion"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    ...publisher(),
  },
  (t) => [index("projects_created_at_idx").on(t.createdAt)],
);

/**
 * Mail waiting to be sent, being sent, sent or given up (docs/decisions/021-mail.md). A row is
 * written in the transaction of the change that causes it; the worker claims rows with
 * FOR UPDATE SKIP LOCKED. `data` holds what the message needs, taken at that moment (the event
 * as it was, the admin's text), so a deleted event can still be told about.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The event the mail is about, if any; not a foreign key, so a deleted event's mail stays. */
    eventId: uuid("event_id"),
    data: jsonb("data").notNull().default({}),
    /** Reminders: one per member, event and start time, however many processes schedule them. */
    dedupeKey: text("dedupe_key").unique(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Not before: when a pending mail may be tried, or when a claim on a sending one lapses. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** The claim under which it is being sent: only that claim may mark it sent. */
    claimId: uuid("claim_id"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index("mail_outbox_user_id_idx").on(t.userId),
    index("mail_outbox_created_at_idx").on(t.createdAt),
    check("mail_outbox_status_check", sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    check(
      "mail_outbox_kind_check",
      sql`${t.kind} in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'sessionCancelled', 'welcome', 'message', 'paymentPending', 'receiptReceived', 'paymentConfirmed', 'paymentRefused', 'holdExpiring', 'holdExpired', 'waitlistJoined', 'teamPlace')`,
    ),
  ],
);

/** Demo content is seeded once per database, even if an admin later deletes it. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * The landing pages' words, photos and links (/admin/sitio, docs/decisions/023-site-content.md):
 * one row per section, its content checked by the section's schema before it is written. Written
 * with the defaults of app/site/copy/section-defaults.ts when the server starts and the row is missing;
 * `edited_at` stays null until an admin saves the section.
 */
export const siteSections = pgTable("site_content", {
  section: text("section").primaryKey(),
  content: jsonb("content").notNull(),
  editedAt: timestamp("edited_at", { withTimezone: true }),
  editedBy: uuid("edited_by").references(() => users.id, { onDelete: "set null" }),
});

export type User = typeof users.$inferSelect;
export type Event = typeof events.$inferSelect;
export type Note = typeof notes.$inferSelect;
export type Resource = typeof resources.$inferSelect;
export type Project = typeof projects.$inferSelect;
export type MailRow = typeof mailOutbox.$inferSelect;

/**
 * The audit log (decision 039): one row per action of an admin, organiser, editor or door staff,
 * written in the transaction of the change. `actorId` is null for the system (an import without
 * --como, a restore) and once the person's account is deleted; `actorName` then says which.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** The role the action was allowed under: admin, organiser, editor, door, system. */
    role: text("role").notNull(),
    action: text("action").notNull(),
    itemKind: text("item_kind").notNull(),
    itemId: text("item_id"),
    summary: text("summary").notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_actor_id_idx").on(t.actorId),
    index("audit_log_item_idx").on(t.itemKind, t.itemId),
  ],
);

export type RoleGrant = typeof roleGrants.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type StaffLink = typeof staffLinks.$inferSelect;
