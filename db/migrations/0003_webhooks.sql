CREATE TABLE `webhook_attempts` (
	`delivery_id` text NOT NULL,
	`number` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`response_body` text,
	PRIMARY KEY(`delivery_id`, `number`),
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_log_idx` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`environment` text DEFAULT 'development' NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`enabled` integer NOT NULL,
	`consecutive_failures` integer NOT NULL,
	`disabled_at` integer,
	`disabled_reason` text,
	`created_by_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_scope_idx` ON `webhook_endpoints` (`project_id`,`environment`);