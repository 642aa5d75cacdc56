CREATE TABLE `environment_clocks` (
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`offset_ms` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `environment`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `environment_faults` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`kind` text NOT NULL,
	`percent` integer NOT NULL,
	`delay_ms` integer,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `environment_faults_scope_idx` ON `environment_faults` (`project_id`,`environment`,`expires_at`);--> statement-breakpoint
ALTER TABLE `webhook_attempts` ADD `injected_fault` text;