ALTER TABLE "connection_log" ADD COLUMN "media_bytes_in" bigint;--> statement-breakpoint
ALTER TABLE "connection_log" ADD COLUMN "media_bytes_out" bigint;--> statement-breakpoint
ALTER TABLE "connection_log" ADD COLUMN "media_packets_lost_in" bigint;--> statement-breakpoint
ALTER TABLE "connection_log" ADD COLUMN "media_packets_lost_out" bigint;