CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"runs" bigint DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_node" text
);
--> statement-breakpoint
CREATE TABLE "sign_in_attempts" (
	"client" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sign_in_attempts_resets_at_idx" ON "sign_in_attempts" USING btree ("resets_at");