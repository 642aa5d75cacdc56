ALTER TABLE "webhook_deliveries" ADD COLUMN "lease_owner" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "lease_expires_at" bigint;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_lease_idx" ON "webhook_deliveries" USING btree ("endpoint_id","lease_expires_at") WHERE "webhook_deliveries"."lease_expires_at" IS NOT NULL;