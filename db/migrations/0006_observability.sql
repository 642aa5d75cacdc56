CREATE TABLE `connection_log` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`kind` text NOT NULL,
	`identity` text NOT NULL,
	`room_id` text,
	`conversation_id` text,
	`connected_at` integer NOT NULL,
	`disconnected_at` integer,
	`close_code` integer,
	`close_reason` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `connection_log_scope_idx` ON `connection_log` (`project_id`,`environment`,`id`);--> statement-breakpoint
CREATE INDEX `connection_log_open_idx` ON `connection_log` (`disconnected_at`);--> statement-breakpoint
CREATE TABLE `error_log` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`request_id` text NOT NULL,
	`status` integer NOT NULL,
	`code` text NOT NULL,
	`message` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`credential` text NOT NULL,
	`occurred_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `error_log_scope_idx` ON `error_log` (`project_id`,`environment`,`id`);--> statement-breakpoint
CREATE TABLE `metric_buckets` (
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`name` text NOT NULL,
	`minute` integer NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`project_id`, `environment`, `name`, `minute`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `metric_buckets_minute_idx` ON `metric_buckets` (`minute`);