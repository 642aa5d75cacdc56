CREATE TABLE `rooms` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`name` text NOT NULL,
	`max_participants` integer,
	`metadata` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_scope_name_idx` ON `rooms` (`project_id`,`environment`,`name`);--> statement-breakpoint
CREATE INDEX `rooms_scope_id_idx` ON `rooms` (`project_id`,`environment`,`id`);--> statement-breakpoint
CREATE TABLE `telemetry_events` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`room_id` text NOT NULL,
	`identity` text NOT NULL,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`data` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `telemetry_scope_idx` ON `telemetry_events` (`project_id`,`environment`,`id`);