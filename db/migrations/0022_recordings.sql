CREATE TABLE `environment_recordings` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`state` text NOT NULL,
	`end_reason` text,
	`max_bytes` integer NOT NULL,
	`max_duration_ms` integer NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`entries` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `environment_recordings_scope_idx` ON `environment_recordings` (`project_id`,`environment`,`id`);--> statement-breakpoint
CREATE INDEX `environment_recordings_state_idx` ON `environment_recordings` (`state`);--> statement-breakpoint
CREATE TABLE `recording_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`recording_id` text NOT NULL,
	`kind` text NOT NULL,
	`connection_id` text,
	`at` integer NOT NULL,
	`clock_at` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`recording_id`) REFERENCES `environment_recordings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recording_entries_recording_idx` ON `recording_entries` (`recording_id`,`id`);