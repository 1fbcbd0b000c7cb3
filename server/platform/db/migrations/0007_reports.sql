-- Reports (issue 13): each position carries its tracker's odometer (cumulative metres) and the
-- driver's tag it read; last_locations keep the odometer the next fix continues from;
-- vehicle_days is the per-vehicle, per-day (America/Sao_Paulo) rollup that ingest keeps current;
-- trip_settings holds a customer's trip rules; report_requests records every report asked for.
-- Hand-written at the end (drizzle cannot express it): the backfill of the odometer, of the last
-- locations' odometer and of vehicle_days from the positions already stored, with the same step
-- rule as server/db/odometer.ts (no step across a change of vehicle; a step under 50 m at a fix
-- reporting under 3 km/h is GPS jitter and counts nothing).
CREATE TABLE "report_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"report_type" text NOT NULL,
	"vehicle_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"driver_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"begin_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"format" text,
	"delivery_method" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trip_settings" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"min_distance" integer DEFAULT 200 NOT NULL,
	"stop_seconds" integer DEFAULT 180 NOT NULL,
	"gap_seconds" integer DEFAULT 3600 NOT NULL,
	"use_ignition" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicle_days" (
	"vehicle_id" uuid NOT NULL,
	"day" text NOT NULL,
	"client_id" uuid NOT NULL,
	"distance" double precision DEFAULT 0 NOT NULL,
	"fixes" integer DEFAULT 0 NOT NULL,
	"max_speed" real,
	"first_fix" timestamp with time zone NOT NULL,
	"last_fix" timestamp with time zone NOT NULL,
	"driver_rfids" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "vehicle_days_vehicle_id_day_pk" PRIMARY KEY("vehicle_id","day")
);
--> statement-breakpoint
ALTER TABLE "last_locations" ADD COLUMN "odometer" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "odometer" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "driver_rfid" text;--> statement-breakpoint
ALTER TABLE "report_requests" ADD CONSTRAINT "report_requests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_requests" ADD CONSTRAINT "report_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_settings" ADD CONSTRAINT "trip_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_requests_client_idx" ON "report_requests" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "report_requests_user_idx" ON "report_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "vehicle_days_client_day_idx" ON "vehicle_days" USING btree ("client_id","day");--> statement-breakpoint
WITH ordered AS (
  SELECT tracker_id, fix_time, vehicle_id, speed, latitude, longitude,
    lag(latitude) OVER w AS plat, lag(longitude) OVER w AS plon, lag(vehicle_id) OVER w AS pveh,
    row_number() OVER w AS n
  FROM positions WINDOW w AS (PARTITION BY tracker_id ORDER BY fix_time)
), steps AS (
  SELECT tracker_id, fix_time, vehicle_id, speed,
    CASE WHEN n = 1 OR pveh IS DISTINCT FROM vehicle_id THEN 0 ELSE
      2 * 6371008.8 * asin(least(1, sqrt(
        power(sin(radians(latitude - plat) / 2), 2) +
        cos(radians(plat)) * cos(radians(latitude)) * power(sin(radians(longitude - plon) / 2), 2))))
    END AS d
  FROM ordered
), counted AS (
  SELECT tracker_id, fix_time, vehicle_id, speed,
    CASE WHEN d < 50 AND speed IS NOT NULL AND speed < 3 THEN 0 ELSE d END AS step
  FROM steps
), summed AS (
  SELECT tracker_id, fix_time, vehicle_id, speed, step,
    sum(step) OVER (PARTITION BY tracker_id ORDER BY fix_time) AS odometer
  FROM counted
), updated AS (
  UPDATE positions p SET odometer = s.odometer FROM summed s
  WHERE p.tracker_id = s.tracker_id AND p.fix_time = s.fix_time
  RETURNING s.vehicle_id, s.fix_time, s.speed, s.step
)
INSERT INTO vehicle_days (vehicle_id, day, client_id, distance, fixes, max_speed, first_fix, last_fix)
SELECT u.vehicle_id, to_char(u.fix_time AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'), v.client_id,
  sum(u.step), count(*), max(u.speed), min(u.fix_time), max(u.fix_time)
FROM updated u JOIN vehicles v ON v.id = u.vehicle_id
GROUP BY u.vehicle_id, to_char(u.fix_time AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'), v.client_id;--> statement-breakpoint
UPDATE last_locations l SET odometer = p.odometer FROM positions p
  WHERE p.tracker_id = l.tracker_id AND p.fix_time = l.fix_time;
