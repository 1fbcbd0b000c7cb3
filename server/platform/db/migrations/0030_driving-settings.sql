CREATE TABLE "driving_settings" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"speeding_very_serious" double precision DEFAULT 10 NOT NULL,
	"speeding_serious" double precision DEFAULT 5 NOT NULL,
	"speeding_medium" double precision DEFAULT 2 NOT NULL,
	"harsh_braking" double precision DEFAULT 3 NOT NULL,
	"harsh_acceleration" double precision DEFAULT 2 NOT NULL,
	"harsh_cornering" double precision DEFAULT 2 NOT NULL,
	"idling" double precision DEFAULT 1 NOT NULL,
	"idle_minutes" integer DEFAULT 5 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driving_settings" ADD CONSTRAINT "driving_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;