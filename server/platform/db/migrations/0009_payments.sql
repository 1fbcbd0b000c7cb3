CREATE TABLE "payment_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"provider_customer_id" text NOT NULL,
	"document" text NOT NULL,
	"description" text,
	"value" double precision NOT NULL,
	"due_date" text NOT NULL,
	"billing_type" text NOT NULL,
	"provider_status" text NOT NULL,
	"status" text NOT NULL,
	"invoice_url" text,
	"bank_slip_url" text,
	"paid_at" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"provider_customer_id" text NOT NULL,
	"synced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_charges_client_idx" ON "payment_charges" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_customers_provider_idx" ON "payment_customers" USING btree ("provider_customer_id");