DROP INDEX "users_email_key";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "cep" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "number" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "complement" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "district" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "state" text;--> statement-breakpoint
CREATE INDEX "clients_name_idx" ON "clients" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "clients_document_key" ON "clients" USING btree ("document") WHERE "clients"."canceled_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email")) WHERE "users"."canceled_at" is null;