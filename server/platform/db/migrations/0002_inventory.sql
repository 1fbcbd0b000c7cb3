CREATE TABLE "commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"vehicle_id" uuid,
	"tracker_id" uuid,
	"kind" text NOT NULL,
	"integration" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"detail" text,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drivers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"complet_name" text NOT NULL,
	"cpf" text NOT NULL,
	"rfid_code" text,
	"license_number" text,
	"license_category" text,
	"license_expiry" text,
	"phone" text
);
--> statement-breakpoint
CREATE TABLE "fleets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"name" text NOT NULL,
	"description" text,
	"vehicle_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"iccid" text NOT NULL,
	"phone_number" text,
	"carrier" text,
	"apn" text
);
--> statement-breakpoint
CREATE TABLE "tracker_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"protocol" text NOT NULL,
	"inputs" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "trackers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"identifier" text NOT NULL,
	"tracker_type_id" uuid,
	"provider" text NOT NULL,
	"config_mode" text DEFAULT 'default' NOT NULL,
	"vehicle_id" uuid,
	"sim_card_id" uuid,
	"enabled" boolean DEFAULT true NOT NULL,
	"activated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "vehicle_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"name" text NOT NULL,
	"plate" text NOT NULL,
	"type" text NOT NULL,
	"brand" text,
	"model" text,
	"year" integer,
	"model_year" integer,
	"color" text,
	"chassis" text,
	"renavam" text
);
--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_tracker_id_trackers_id_fk" FOREIGN KEY ("tracker_id") REFERENCES "public"."trackers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleets" ADD CONSTRAINT "fleets_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_cards" ADD CONSTRAINT "sim_cards_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_tracker_type_id_tracker_types_id_fk" FOREIGN KEY ("tracker_type_id") REFERENCES "public"."tracker_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trackers" ADD CONSTRAINT "trackers_sim_card_id_sim_cards_id_fk" FOREIGN KEY ("sim_card_id") REFERENCES "public"."sim_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_images" ADD CONSTRAINT "vehicle_images_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commands_vehicle_idx" ON "commands" USING btree ("vehicle_id","created_at");--> statement-breakpoint
CREATE INDEX "drivers_client_idx" ON "drivers" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_cpf_key" ON "drivers" USING btree ("client_id","cpf") WHERE "drivers"."canceled_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_rfid_key" ON "drivers" USING btree ("rfid_code") WHERE "drivers"."canceled_at" is null and "drivers"."rfid_code" is not null;--> statement-breakpoint
CREATE INDEX "fleets_client_idx" ON "fleets" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "sim_cards_client_idx" ON "sim_cards" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_cards_iccid_key" ON "sim_cards" USING btree ("iccid") WHERE "sim_cards"."canceled_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_types_model_key" ON "tracker_types" USING btree (lower("manufacturer"),lower("model")) WHERE "tracker_types"."canceled_at" is null;--> statement-breakpoint
CREATE INDEX "trackers_client_idx" ON "trackers" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trackers_identifier_key" ON "trackers" USING btree ("identifier") WHERE "trackers"."canceled_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "trackers_sim_key" ON "trackers" USING btree ("sim_card_id") WHERE "trackers"."canceled_at" is null and "trackers"."sim_card_id" is not null;--> statement-breakpoint
CREATE INDEX "vehicle_images_vehicle_idx" ON "vehicle_images" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "vehicles_client_idx" ON "vehicles" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_plate_key" ON "vehicles" USING btree ("plate") WHERE "vehicles"."canceled_at" is null;