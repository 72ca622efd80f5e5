CREATE TABLE "terminal_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"username" text NOT NULL,
	"relay_token_hash" text NOT NULL,
	"relay_expires_at" timestamp with time zone NOT NULL,
	"relay_claimed_at" timestamp with time zone,
	"peer_url" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alive_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "terminal_sessions" ADD CONSTRAINT "terminal_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "terminal_sessions_open_idx" ON "terminal_sessions" USING btree ("device_id") WHERE ended_at IS NULL;