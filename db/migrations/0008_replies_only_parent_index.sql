DROP INDEX `messages_parent_idx`;--> statement-breakpoint
CREATE INDEX `messages_parent_idx` ON `messages` (`parent_id`,`id`) WHERE "messages"."parent_id" IS NOT NULL;