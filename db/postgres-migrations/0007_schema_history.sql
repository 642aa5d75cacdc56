CREATE TABLE "schema_migrations" (
	"tag" text COLLATE "C" PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"compatibility" text COLLATE "C" NOT NULL,
	"first_server_version" text COLLATE "C" NOT NULL,
	"recorded_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_versions" (
	"version" text COLLATE "C" NOT NULL,
	"schema" text COLLATE "C" NOT NULL,
	"first_started_at" bigint NOT NULL,
	"last_started_at" bigint NOT NULL,
	CONSTRAINT "server_versions_version_schema_pk" PRIMARY KEY("version","schema")
);
