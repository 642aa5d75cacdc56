CREATE TABLE "environment_recordings" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"end_reason" text COLLATE "C",
	"max_bytes" bigint NOT NULL,
	"max_duration_ms" bigint NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"entries" bigint DEFAULT 0 NOT NULL,
	"started_at" bigint NOT NULL,
	"ended_at" bigint
);
--> statement-breakpoint
CREATE TABLE "recording_entries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"recording_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"connection_id" text COLLATE "C",
	"at" bigint NOT NULL,
	"clock_at" bigint NOT NULL,
	"data" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environment_recordings" ADD CONSTRAINT "environment_recordings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_entries" ADD CONSTRAINT "recording_entries_recording_id_environment_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."environment_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_recordings_scope_idx" ON "environment_recordings" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "environment_recordings_state_idx" ON "environment_recordings" USING btree ("state");--> statement-breakpoint
CREATE INDEX "recording_entries_recording_idx" ON "recording_entries" USING btree ("recording_id","id");