-- Hardening: every change of a last location is numbered (the live stream's event ids) and
-- records the protocol it came by; commands to our own trackers carry the line to send, when
-- it went out and when it expires; a refresh-token family remembers its sign-in (absolute
-- session lifetime); a tracker may have its own Wialon IPS password; RFID tags are unique
-- per customer, not across customers.
CREATE SEQUENCE "public"."last_location_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
DROP INDEX "drivers_rfid_key";--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "payload" text;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "last_locations" ADD COLUMN "seq" bigint DEFAULT nextval('last_location_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "last_locations" ADD COLUMN "protocol" text;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "session_started_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "trackers" ADD COLUMN "wialon_password_hash" text;--> statement-breakpoint
CREATE INDEX "commands_open_idx" ON "commands" USING btree ("tracker_id","status") WHERE "commands"."status" in ('pending', 'sent');--> statement-breakpoint
CREATE INDEX "last_locations_seq_idx" ON "last_locations" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_rfid_key" ON "drivers" USING btree ("client_id","rfid_code") WHERE "drivers"."canceled_at" is null and "drivers"."rfid_code" is not null;;--> statement-breakpoint
UPDATE "refresh_tokens" AS r SET "session_started_at" = f."started"
  FROM (SELECT "family_id", min("created_at") AS "started" FROM "refresh_tokens" GROUP BY "family_id") AS f
  WHERE r."family_id" = f."family_id";--> statement-breakpoint
UPDATE "commands" SET "expires_at" = "created_at" + interval '1 day'
  WHERE "status" = 'pending' AND "integration" = 'rastro';