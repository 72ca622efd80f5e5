CREATE TABLE "idp_recovery_codes" (
	"account_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "idp_recovery_codes_account_id_code_hash_pk" PRIMARY KEY("account_id","code_hash")
);
--> statement-breakpoint
CREATE TABLE "idp_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"admin_two_factor_required" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idp_accounts" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "idp_accounts" ADD COLUMN "totp_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "idp_accounts" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "idp_accounts" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "idp_recovery_codes" ADD CONSTRAINT "idp_recovery_codes_account_id_idp_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."idp_accounts"("id") ON DELETE cascade ON UPDATE no action;