ALTER TABLE "servers" ADD COLUMN "up_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "servers" ADD COLUMN "heard_at" timestamp with time zone;