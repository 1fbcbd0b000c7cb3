CREATE TABLE "auto_report_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"created_by" uuid,
	"name" text NOT NULL,
	"report_type" text NOT NULL,
	"format" text DEFAULT 'excel' NOT NULL,
	"periodicity" text NOT NULL,
	"vehicle_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"driver_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"email_delivery" text NOT NULL,
	"send_hour" integer DEFAULT 7 NOT NULL,
	"weekday" integer DEFAULT 1 NOT NULL,
	"month_day" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_run" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auto_report_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"client_id" uuid NOT NULL,
	"path" text NOT NULL,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_requests" ADD COLUMN "recipients" text;--> statement-breakpoint
ALTER TABLE "auto_report_rules" ADD CONSTRAINT "auto_report_rules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_report_rules" ADD CONSTRAINT "auto_report_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_report_runs" ADD CONSTRAINT "auto_report_runs_rule_id_auto_report_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."auto_report_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_report_rules_client_idx" ON "auto_report_rules" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_report_runs_period_key" ON "auto_report_runs" USING btree ("rule_id","period_start") WHERE not "auto_report_runs"."manual";--> statement-breakpoint
CREATE INDEX "auto_report_runs_due_idx" ON "auto_report_runs" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_links_token_key" ON "report_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "report_links_expiry_idx" ON "report_links" USING btree ("expires_at");