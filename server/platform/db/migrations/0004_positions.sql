CREATE TABLE "last_locations" (
	"tracker_id" uuid PRIMARY KEY NOT NULL,
	"vehicle_id" uuid,
	"client_id" uuid NOT NULL,
	"fix_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"speed" real,
	"course" real,
	"ignition" boolean,
	"battery" real,
	"driver_rfid" text
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"tracker_id" uuid NOT NULL,
	"vehicle_id" uuid,
	"client_id" uuid NOT NULL,
	"fix_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"speed" real,
	"course" real,
	"altitude" real,
	"accuracy" real,
	"ignition" boolean,
	"battery" real,
	"attributes" jsonb,
	CONSTRAINT "positions_tracker_id_fix_time_pk" PRIMARY KEY("tracker_id","fix_time")
);
--> statement-breakpoint
CREATE INDEX "last_locations_client_idx" ON "last_locations" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "last_locations_vehicle_idx" ON "last_locations" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "positions_vehicle_time_idx" ON "positions" USING btree ("vehicle_id","fix_time");