-- A vehicle's day rollup is kept per owner: the day a vehicle moves to another customer has
-- one row for each, so that neither customer's reports count the other's kilometres.
ALTER TABLE "vehicle_days" DROP CONSTRAINT "vehicle_days_vehicle_id_day_pk";--> statement-breakpoint
ALTER TABLE "vehicle_days" ADD CONSTRAINT "vehicle_days_vehicle_id_day_client_id_pk" PRIMARY KEY("vehicle_id","day","client_id");