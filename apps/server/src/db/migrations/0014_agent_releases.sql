CREATE TABLE "bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_bundles" (
	"release_id" uuid NOT NULL,
	"bundle_id" uuid NOT NULL,
	CONSTRAINT "release_bundles_release_id_bundle_id_pk" PRIMARY KEY("release_id","bundle_id")
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"branch" text NOT NULL,
	"version" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "release_bundles" ADD CONSTRAINT "release_bundles_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_bundles" ADD CONSTRAINT "release_bundles_bundle_id_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."bundles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bundles_name_version_idx" ON "bundles" USING btree ("name","version");--> statement-breakpoint
CREATE UNIQUE INDEX "releases_branch_version_idx" ON "releases" USING btree ("branch","version");