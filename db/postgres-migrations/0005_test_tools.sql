CREATE TABLE "environment_clocks" (
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"offset_ms" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "environment_clocks_project_id_environment_pk" PRIMARY KEY("project_id","environment")
);
--> statement-breakpoint
CREATE TABLE "environment_faults" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"percent" bigint NOT NULL,
	"delay_ms" bigint,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "injected_fault" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "environment_clocks" ADD CONSTRAINT "environment_clocks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environment_faults" ADD CONSTRAINT "environment_faults_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_faults_scope_idx" ON "environment_faults" USING btree ("project_id","environment","expires_at");