/**
 * The whole database schema (one PostgreSQL dialect for PGlite and PostgreSQL), made of each
 * room's schema.ts. drizzle-kit reads this file and generates the migrations into
 * platform/db/migrations, which every process applies at start (platform/db/client.ts).
 *
 * A room's tables point at other rooms' tables by importing those rooms' schema files, never
 * this one, and reference them lazily (`() => clients.id`): this file imports every room and no
 * room imports it back, so loading the schema meets no circle. The queries of any room may read
 * any table from here.
 */
export * from './accounts/schema';
export * from './alerts/schema';
export * from './audit/schema';
export * from './commands/schema';
export * from './geofences/schema';
export * from './ingest/schema';
export * from './inventory/schema';
export * from './jornada/schema';
export * from './payments/schema';
export * from './platform/db/schema';
export * from './reports/schema';
export * from './sharing/schema';
export * from './tenancy/schema';
export * from './upkeep/schema';
