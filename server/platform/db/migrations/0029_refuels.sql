CREATE TABLE "refuels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"vehicle_id" uuid NOT NULL,
	"driver_id" uuid,
	"at" timestamp with time zone NOT NULL,
	"liters" double precision NOT NULL,
	"price_milli" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"odometer_km" double precision NOT NULL,
	"station" text,
	"full_tank" boolean DEFAULT false NOT NULL,
	"notes" text
);
--> statement-breakpoint
CREATE TABLE "vehicle_expenses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"vehicle_id" uuid NOT NULL,
	"date" text NOT NULL,
	"category" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text
);
--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "fuel_tank_liters" double precision;--> statement-breakpoint
ALTER TABLE "refuels" ADD CONSTRAINT "refuels_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refuels" ADD CONSTRAINT "refuels_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refuels" ADD CONSTRAINT "refuels_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_expenses" ADD CONSTRAINT "vehicle_expenses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_expenses" ADD CONSTRAINT "vehicle_expenses_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refuels_client_idx" ON "refuels" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "refuels_vehicle_idx" ON "refuels" USING btree ("vehicle_id","at");--> statement-breakpoint
CREATE INDEX "vehicle_expenses_client_idx" ON "vehicle_expenses" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "vehicle_expenses_vehicle_idx" ON "vehicle_expenses" USING btree ("vehicle_id","date");