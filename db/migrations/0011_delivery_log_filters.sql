ALTER TABLE `webhook_attempts` ADD `request_headers` text;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_log_status_idx` ON `webhook_deliveries` (`endpoint_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_log_type_idx` ON `webhook_deliveries` (`endpoint_id`,`event_type`,`id`);