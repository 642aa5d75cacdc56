CREATE TABLE "environment_snapshots" (
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by" text COLLATE "C",
	"counts" text COLLATE "C" NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "environment_snapshots_project_id_environment_name_pk" PRIMARY KEY("project_id","environment","name")
);
--> statement-breakpoint
ALTER TABLE "environment_snapshots" ADD CONSTRAINT "environment_snapshots_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;