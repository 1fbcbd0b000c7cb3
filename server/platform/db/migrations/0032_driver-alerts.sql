ALTER TABLE "alerts" ALTER COLUMN "vehicle_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "driver_id" uuid;--> statement-breakpoint
CREATE INDEX "alerts_driver_time_idx" ON "alerts" USING btree ("driver_id","created_at");--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_subject" CHECK ("alerts"."vehicle_id" is not null or "alerts"."driver_id" is not null);