-- Attendance per session (decision 044): who came to which session, and the share of sessions that
-- earns an event's certificate. Every check-in recorded before becomes attendance of a session of
-- its event (for the events of that time, their one session spanning them); the same statement is
-- CHECK_INS_AS_ATTENDANCE in app/attendance/session-attendance.server.ts, run for old backups.
CREATE TABLE "session_attendance" (
	"session_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"checked_in_at" timestamp with time zone NOT NULL,
	"checked_in_by" uuid,
	"checked_in_by_link" uuid,
	CONSTRAINT "session_attendance_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "certificate_share" integer DEFAULT 75 NOT NULL;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_session_id_event_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."event_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_checked_in_by_link_staff_links_id_fk" FOREIGN KEY ("checked_in_by_link") REFERENCES "public"."staff_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_attendance" ADD CONSTRAINT "session_attendance_participation_fk" FOREIGN KEY ("user_id","event_id") REFERENCES "public"."participations"("user_id","event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_attendance_event_id_user_id_idx" ON "session_attendance" USING btree ("event_id","user_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_certificate_share_check" CHECK ("events"."certificate_share" between 1 and 100);;--> statement-breakpoint
INSERT INTO "session_attendance" ("session_id", "event_id", "user_id", "checked_in_at", "checked_in_by", "checked_in_by_link")
SELECT s.id, p.event_id, p.user_id, p.checked_in_at, p.checked_in_by, p.checked_in_by_link
FROM "participations" p
CROSS JOIN LATERAL (
  SELECT o.id FROM "event_sessions" o
  WHERE o.event_id = p.event_id AND o.cancelled_at IS NULL
  ORDER BY (o.starts_at - interval '1 hour' <= p.checked_in_at) DESC,
    CASE WHEN o.starts_at - interval '1 hour' <= p.checked_in_at THEN o.starts_at END DESC,
    o.starts_at
  LIMIT 1) s
WHERE p.checked_in_at IS NOT NULL;