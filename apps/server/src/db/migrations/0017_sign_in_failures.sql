CREATE TABLE "idp_sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_failure" timestamp with time zone NOT NULL
);
