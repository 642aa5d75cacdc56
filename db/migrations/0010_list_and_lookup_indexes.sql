CREATE INDEX `conversations_scope_id_idx` ON `conversations` (`project_id`,`environment`,`id`);--> statement-breakpoint
CREATE INDEX `live_streams_room_idx` ON `live_streams` (`room_id`);