CREATE TABLE "job_results" (
	"run_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"device_name" text NOT NULL,
	"state" text NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"exit_code" integer,
	"duration_ms" integer,
	"reason" text,
	"stdout" text DEFAULT '' NOT NULL,
	"stderr" text DEFAULT '' NOT NULL,
	CONSTRAINT "job_results_run_id_device_id_pk" PRIMARY KEY("run_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"state" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"total" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_by" text NOT NULL,
	"created_by_subject" text,
	"organization_limit" text[],
	"command_name" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"target" jsonb NOT NULL,
	"target_text" text NOT NULL,
	"expiry_hours" integer NOT NULL,
	"lease_seconds" integer NOT NULL,
	"schedule" jsonb NOT NULL,
	"next_run_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"rerun_of" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "job_results" ADD CONSTRAINT "job_results_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_results_page_idx" ON "job_results" USING btree ("run_id","device_name","device_id");--> statement-breakpoint
CREATE INDEX "job_results_state_idx" ON "job_results" USING btree ("run_id","state","device_name","device_id");--> statement-breakpoint
CREATE INDEX "job_results_queued_idx" ON "job_results" USING btree ("device_id") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "job_results_running_idx" ON "job_results" USING btree ("lease_until") WHERE state = 'running';--> statement-breakpoint
CREATE INDEX "job_runs_job_idx" ON "job_runs" USING btree ("job_id","number" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "job_runs_running_idx" ON "job_runs" USING btree ("state") WHERE state = 'running';--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("next_run_at") WHERE next_run_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_creator_idx" ON "jobs" USING btree ("created_by","created_at" DESC NULLS LAST);