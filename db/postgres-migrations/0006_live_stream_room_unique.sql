DROP INDEX "live_streams_room_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "live_streams_room_idx" ON "live_streams" USING btree ("room_id");