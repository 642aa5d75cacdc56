CREATE TABLE `schema_migrations` (
	`tag` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`compatibility` text NOT NULL,
	`first_server_version` text NOT NULL,
	`recorded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `server_versions` (
	`version` text NOT NULL,
	`schema` text NOT NULL,
	`first_started_at` integer NOT NULL,
	`last_started_at` integer NOT NULL,
	PRIMARY KEY(`version`, `schema`)
);
