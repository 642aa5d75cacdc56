CREATE TABLE "attachment_chunks" (
	"attachment_id" text COLLATE "C" NOT NULL,
	"position" bigint NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "attachment_chunks_attachment_id_position_pk" PRIMARY KEY("attachment_id","position")
);
--> statement-breakpoint
ALTER TABLE "attachment_chunks" ADD CONSTRAINT "attachment_chunks_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE cascade ON UPDATE no action;