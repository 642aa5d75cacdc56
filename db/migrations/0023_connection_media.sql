ALTER TABLE `connection_log` ADD `media_bytes_in` integer;--> statement-breakpoint
ALTER TABLE `connection_log` ADD `media_bytes_out` integer;--> statement-breakpoint
ALTER TABLE `connection_log` ADD `media_packets_lost_in` integer;--> statement-breakpoint
ALTER TABLE `connection_log` ADD `media_packets_lost_out` integer;