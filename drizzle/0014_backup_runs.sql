CREATE TABLE "backup_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"file" text NOT NULL,
	"bytes" bigint,
	"bucket_copy" text,
	"error" text
);
