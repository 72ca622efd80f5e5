CREATE TABLE "api_token_addresses" (
	"token_id" uuid NOT NULL,
	"address" text NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_token_addresses_token_id_address_pk" PRIMARY KEY("token_id","address")
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_subject" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scope" text NOT NULL,
	"organization_ids" uuid[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_address" text,
	CONSTRAINT "api_tokens_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "roles" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_members" ADD COLUMN "granted_by" text;--> statement-breakpoint
ALTER TABLE "api_token_addresses" ADD CONSTRAINT "api_token_addresses_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_owner_idx" ON "api_tokens" USING btree ("owner_subject","created_at");