CREATE TABLE "api_keys" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"public_id" text COLLATE "C" NOT NULL,
	"secret_hash" text COLLATE "C" NOT NULL,
	"created_by_id" text COLLATE "C",
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint,
	CONSTRAINT "api_keys_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"conversation_id" text COLLATE "C" NOT NULL,
	"uploader_id" text COLLATE "C",
	"filename" text COLLATE "C" NOT NULL,
	"content_type" text COLLATE "C" NOT NULL,
	"size" bigint NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"sha256" text COLLATE "C",
	"message_id" text COLLATE "C",
	"created_at" bigint NOT NULL,
	"uploaded_at" bigint,
	"completed_at" bigint
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"actor_type" text COLLATE "C" NOT NULL,
	"actor_id" text COLLATE "C",
	"actor_email" text COLLATE "C",
	"action" text COLLATE "C" NOT NULL,
	"target_type" text COLLATE "C" NOT NULL,
	"target_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C",
	"details" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connection_log" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"identity" text COLLATE "C" NOT NULL,
	"room_id" text COLLATE "C",
	"conversation_id" text COLLATE "C",
	"connected_at" bigint NOT NULL,
	"disconnected_at" bigint,
	"close_code" bigint,
	"close_reason" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "conversation_members" (
	"conversation_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"role" text COLLATE "C" NOT NULL,
	"joined_at" bigint NOT NULL,
	CONSTRAINT "conversation_members_conversation_id_user_id_pk" PRIMARY KEY("conversation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"metadata" text COLLATE "C",
	"created_by" text COLLATE "C",
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_log" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"request_id" text COLLATE "C" NOT NULL,
	"status" bigint NOT NULL,
	"code" text COLLATE "C" NOT NULL,
	"message" text COLLATE "C" NOT NULL,
	"method" text COLLATE "C" NOT NULL,
	"route" text COLLATE "C" NOT NULL,
	"credential" text COLLATE "C" NOT NULL,
	"occurred_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_stream_participants" (
	"stream_id" text COLLATE "C" NOT NULL,
	"identity" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"joined_at" bigint NOT NULL,
	"left_at" bigint,
	CONSTRAINT "live_stream_participants_stream_id_identity_pk" PRIMARY KEY("stream_id","identity")
);
--> statement-breakpoint
CREATE TABLE "live_streams" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"title" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"room_id" text COLLATE "C" NOT NULL,
	"conversation_id" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"started_at" bigint,
	"ended_at" bigint
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"conversation_id" text COLLATE "C" NOT NULL,
	"sender_id" text COLLATE "C" NOT NULL,
	"text" text COLLATE "C" NOT NULL,
	"parent_id" text COLLATE "C",
	"attachment_ids" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"edited_at" bigint,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "metric_buckets" (
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"minute" bigint NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "metric_buckets_project_id_environment_name_minute_pk" PRIMARY KEY("project_id","environment","name","minute")
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"role" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "project_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"owner_id" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"message_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"emoji" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "reactions_message_id_user_id_emoji_pk" PRIMARY KEY("message_id","user_id","emoji")
);
--> statement-breakpoint
CREATE TABLE "read_states" (
	"conversation_id" text COLLATE "C" NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"last_read_message_id" text COLLATE "C" NOT NULL,
	"read_at" bigint NOT NULL,
	CONSTRAINT "read_states_conversation_id_user_id_pk" PRIMARY KEY("conversation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"max_participants" bigint,
	"metadata" text COLLATE "C",
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"user_id" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "telemetry_events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"room_id" text COLLATE "C" NOT NULL,
	"identity" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"occurred_at" bigint NOT NULL,
	"received_at" bigint NOT NULL,
	"data" text COLLATE "C"
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"email" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C",
	"password_hash" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"delivery_id" text COLLATE "C" NOT NULL,
	"number" bigint NOT NULL,
	"attempted_at" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	"status_code" bigint,
	"error" text COLLATE "C",
	"request_headers" text COLLATE "C",
	"response_body" text COLLATE "C",
	CONSTRAINT "webhook_attempts_delivery_id_number_pk" PRIMARY KEY("delivery_id","number")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"endpoint_id" text COLLATE "C" NOT NULL,
	"event_id" text COLLATE "C" NOT NULL,
	"event_type" text COLLATE "C" NOT NULL,
	"payload" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"attempts" bigint NOT NULL,
	"last_status_code" bigint,
	"last_error" text COLLATE "C",
	"next_attempt_at" bigint,
	"resends" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"project_id" text COLLATE "C" NOT NULL,
	"environment" text COLLATE "C" DEFAULT 'development' NOT NULL,
	"url" text COLLATE "C" NOT NULL,
	"events" text COLLATE "C" NOT NULL,
	"secret_ciphertext" text COLLATE "C" NOT NULL,
	"enabled" boolean NOT NULL,
	"consecutive_failures" bigint NOT NULL,
	"disabled_at" bigint,
	"disabled_reason" text COLLATE "C",
	"created_by_id" text COLLATE "C",
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_log" ADD CONSTRAINT "connection_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_members" ADD CONSTRAINT "conversation_members_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_log" ADD CONSTRAINT "error_log_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_stream_participants" ADD CONSTRAINT "live_stream_participants_stream_id_live_streams_id_fk" FOREIGN KEY ("stream_id") REFERENCES "public"."live_streams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_buckets" ADD CONSTRAINT "metric_buckets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reactions" ADD CONSTRAINT "reactions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "read_states" ADD CONSTRAINT "read_states_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_events" ADD CONSTRAINT "telemetry_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_scope_idx" ON "api_keys" USING btree ("project_id","environment");--> statement-breakpoint
CREATE INDEX "attachments_conversation_idx" ON "attachments" USING btree ("conversation_id");--> statement-breakpoint
CREATE INDEX "attachments_message_idx" ON "attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "attachments_status_created_idx" ON "attachments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_project_idx" ON "audit_log" USING btree ("project_id","id");--> statement-breakpoint
CREATE INDEX "connection_log_scope_idx" ON "connection_log" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "connection_log_open_idx" ON "connection_log" USING btree ("disconnected_at");--> statement-breakpoint
CREATE INDEX "conversation_members_user_idx" ON "conversation_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_scope_name_idx" ON "conversations" USING btree ("project_id","environment","name");--> statement-breakpoint
CREATE INDEX "conversations_scope_id_idx" ON "conversations" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "error_log_scope_idx" ON "error_log" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "live_streams_scope_idx" ON "live_streams" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "live_streams_room_idx" ON "live_streams" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "messages_parent_idx" ON "messages" USING btree ("parent_id","id") WHERE "messages"."parent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "metric_buckets_minute_idx" ON "metric_buckets" USING btree ("minute");--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_scope_name_idx" ON "rooms" USING btree ("project_id","environment","name");--> statement-breakpoint
CREATE INDEX "rooms_scope_id_idx" ON "rooms" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "telemetry_scope_idx" ON "telemetry_events" USING btree ("project_id","environment","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_log_status_idx" ON "webhook_deliveries" USING btree ("endpoint_id","status","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_log_type_idx" ON "webhook_deliveries" USING btree ("endpoint_id","event_type","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_scope_idx" ON "webhook_endpoints" USING btree ("project_id","environment");