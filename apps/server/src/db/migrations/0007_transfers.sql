CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"name" text NOT NULL,
	"size" bigint,
	"write_token_hash" text,
	"write_expires_at" timestamp with time zone,
	"written_at" timestamp with time zone,
	"read_token_hash" text,
	"read_expires_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "transfers_unremoved_idx" ON "transfers" USING btree ("created_at") WHERE removed_at IS NULL;