ALTER TABLE `webhook_deliveries` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `lease_expires_at` integer;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_lease_idx` ON `webhook_deliveries` (`endpoint_id`,`lease_expires_at`) WHERE "webhook_deliveries"."lease_expires_at" IS NOT NULL;