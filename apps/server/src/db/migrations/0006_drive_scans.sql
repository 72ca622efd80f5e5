CREATE TABLE "drive_scans" (
	"device_id" uuid NOT NULL,
	"root" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"result" jsonb,
	"error" text,
	CONSTRAINT "drive_scans_device_id_root_pk" PRIMARY KEY("device_id","root")
);
--> statement-breakpoint
ALTER TABLE "drive_scans" ADD CONSTRAINT "drive_scans_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;