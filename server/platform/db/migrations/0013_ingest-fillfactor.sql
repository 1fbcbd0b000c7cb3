-- Issue 16: room on every page for the row versions ingest writes. The per-vehicle rows that
-- every batch updates (the day rollup and the alert engine's state) change no indexed column,
-- so with free space on the page PostgreSQL writes the new version beside the old one (a HOT
-- update: no index entry, pruned in place) instead of a new index entry in every index.
-- Measured on this machine (ingest bench, 2,000 vehicles per batch): the day-rollup statement
-- went from 69 to 55 ms, the state write from 20 to 15 ms. Last locations too: their event id
-- is indexed, but the odometer shift of a late black box changes nothing indexed. Existing
-- pages keep their fill until rewritten; new ones follow the setting.
ALTER TABLE "vehicle_days" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "alert_states" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "last_locations" SET (fillfactor = 50);
