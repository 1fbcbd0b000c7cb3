-- Positions are kept for years at one fix per vehicle every 10 s: the table is partitioned
-- by month of the fix time (server/db/partitions.ts creates the months ahead), with a
-- default partition so that no fix is ever refused for want of one. Queries by vehicle and
-- period touch only the months they need; old months can be detached or archived whole.
ALTER TABLE "positions" RENAME TO "positions_unpartitioned";--> statement-breakpoint
ALTER TABLE "positions_unpartitioned" RENAME CONSTRAINT "positions_tracker_id_fix_time_pk" TO "positions_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "positions_vehicle_time_idx" RENAME TO "positions_unpartitioned_vehicle_time_idx";--> statement-breakpoint
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
) PARTITION BY RANGE ("fix_time");--> statement-breakpoint
CREATE INDEX "positions_vehicle_time_idx" ON "positions" USING btree ("vehicle_id","fix_time");--> statement-breakpoint
CREATE TABLE "positions_default" PARTITION OF "positions" DEFAULT;--> statement-breakpoint
INSERT INTO "positions" SELECT * FROM "positions_unpartitioned";--> statement-breakpoint
DROP TABLE "positions_unpartitioned";
