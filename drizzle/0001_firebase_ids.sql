ALTER TABLE "events" ADD COLUMN "firebase_id" text;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "firebase_id" text;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "firebase_id" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "firebase_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "firebase_uid" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "firebase_google_subject" text;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_firebase_id_unique" UNIQUE("firebase_id");--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_firebase_id_unique" UNIQUE("firebase_id");--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_firebase_id_unique" UNIQUE("firebase_id");--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_firebase_id_unique" UNIQUE("firebase_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_firebase_uid_unique" UNIQUE("firebase_uid");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_firebase_google_subject_unique" UNIQUE("firebase_google_subject");