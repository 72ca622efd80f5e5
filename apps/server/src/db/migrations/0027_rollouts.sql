CREATE TABLE "release_rollouts" (
	"release_id" uuid PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"waves" jsonb NOT NULL,
	"boundaries" jsonb NOT NULL,
	"wait_minutes" double precision NOT NULL,
	"failure_percent" double precision NOT NULL,
	"failure_count" integer,
	"wave" integer NOT NULL,
	"wave_started_at" timestamp with time zone,
	"accepted" jsonb NOT NULL,
	"reason" text,
	"created_by" text NOT NULL,
	"created_by_subject" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rollout_devices" (
	"release_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"wave" integer NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"reason" text,
	"offered_at" timestamp with time zone,
	"nudged_at" timestamp with time zone,
	"downloaded_at" timestamp with time zone,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rollout_devices_release_id_device_id_pk" PRIMARY KEY("release_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "release_rollouts" ADD CONSTRAINT "release_rollouts_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD CONSTRAINT "rollout_devices_release_id_release_rollouts_release_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."release_rollouts"("release_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rollout_devices" ADD CONSTRAINT "rollout_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rollout_devices_wave_idx" ON "rollout_devices" USING btree ("release_id","wave","state");--> statement-breakpoint
CREATE INDEX "rollout_devices_device_idx" ON "rollout_devices" USING btree ("device_id");