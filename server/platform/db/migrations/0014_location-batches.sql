CREATE TABLE "location_batches" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"first_seq" bigint NOT NULL,
	"tracker_ids" uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "last_locations_seq_idx";