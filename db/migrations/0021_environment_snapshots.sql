CREATE TABLE `environment_snapshots` (
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text,
	`counts` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`content` blob NOT NULL,
	PRIMARY KEY(`project_id`, `environment`, `name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
