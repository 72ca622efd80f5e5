CREATE TABLE "captcha_redemptions" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"sender_subject" text NOT NULL,
	"sender_username" text NOT NULL,
	"client_address" text,
	"mail_status" text NOT NULL,
	"mail_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "contact_messages_created_idx" ON "contact_messages" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
-- One table of the keys the console makes for itself (the provider's, the CAPTCHA's), not one per feature.
ALTER TABLE "idp_secrets" RENAME TO "console_secrets";--> statement-breakpoint
ALTER TABLE "console_secrets" RENAME CONSTRAINT "idp_secrets_pkey" TO "console_secrets_pkey";--> statement-breakpoint
UPDATE "console_secrets" SET "name" = 'idp-keys' WHERE "name" = 'keys';
