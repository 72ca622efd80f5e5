CREATE TABLE "broker_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_credentials" (
	"device_id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_credentials_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "device_metrics" (
	"device_id" uuid NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"system_load" real NOT NULL,
	CONSTRAINT "device_metrics_device_id_time_pk" PRIMARY KEY("device_id","time")
);
--> statement-breakpoint
CREATE TABLE "device_online_periods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_servers" (
	"device_id" uuid NOT NULL,
	"server_id" uuid NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_servers_device_id_server_id_pk" PRIMARY KEY("device_id","server_id")
);
--> statement-breakpoint
CREATE TABLE "servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"notes" text,
	"max_capacity" integer DEFAULT 100 NOT NULL,
	"status" text DEFAULT 'ONLINE' NOT NULL,
	"organization_id" uuid,
	"username" text,
	"password" text,
	"trust_store" text,
	"trust_store_password" text,
	"blob_base_url" text,
	"host_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_credentials" ADD CONSTRAINT "device_credentials_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_metrics" ADD CONSTRAINT "device_metrics_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_online_periods" ADD CONSTRAINT "device_online_periods_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_servers" ADD CONSTRAINT "device_servers_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_servers" ADD CONSTRAINT "device_servers_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servers" ADD CONSTRAINT "servers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_online_periods_device_start_idx" ON "device_online_periods" USING btree ("device_id","start");--> statement-breakpoint
CREATE INDEX "device_online_periods_open_idx" ON "device_online_periods" USING btree ("device_id") WHERE "end" is null;--> statement-breakpoint
CREATE INDEX "device_servers_server_idx" ON "device_servers" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "servers_type_idx" ON "servers" USING btree ("type");