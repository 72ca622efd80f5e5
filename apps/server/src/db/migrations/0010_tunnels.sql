CREATE TABLE "tunnels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"port" integer NOT NULL,
	"mode" text NOT NULL,
	"domain_id" uuid,
	"path" text,
	"host" text NOT NULL,
	"security_ip" text,
	"security_username" text,
	"security_password_hash" text,
	"state" text,
	"mapping" text,
	"proxy_server_id" uuid,
	"state_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tunnels" ADD CONSTRAINT "tunnels_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tunnels" ADD CONSTRAINT "tunnels_domain_id_organization_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."organization_domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tunnels" ADD CONSTRAINT "tunnels_proxy_server_id_servers_id_fk" FOREIGN KEY ("proxy_server_id") REFERENCES "public"."servers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tunnels_device_port_idx" ON "tunnels" USING btree ("device_id","port");--> statement-breakpoint
CREATE UNIQUE INDEX "tunnels_path_idx" ON "tunnels" USING btree ("path");