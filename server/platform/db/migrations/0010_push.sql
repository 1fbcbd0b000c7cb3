ALTER TABLE "push_tokens" ADD COLUMN "kind" text DEFAULT 'fcm' NOT NULL;--> statement-breakpoint
ALTER TABLE "push_tokens" ADD COLUMN "alert_types" text[];