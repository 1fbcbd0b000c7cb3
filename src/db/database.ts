/**
 * The one IndexedDB database of the PWA (Dexie). It mirrors what a supervisor must still see
 * without signal: vehicles, drivers, geofences and last locations, per customer, and when each mirror
 * last synced.
 * Records are stored as the API answered them (parsed by the contract first).
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import { onSignOut, session } from '../api/session';
import type { Driver, Geofence, LocationItem, Vehicle } from '../contract';

export interface SyncState {
  /** '<resource>:<clientId>' */
  key: string;
  /**
   * Where the next sync starts: for vehicles and drivers the newest updatedAt seen; for last
   * locations the greatest event id applied (the live stream resumes after it).
   */
  watermark: string;
  /** When this device last synced (shown as "dados de HH:MM"). */
  syncedAt: string;
}

/** A last location as seen for one selected customer (`scope`): the map of that customer. */
export type MirroredLocation = LocationItem & { scope: string };

/** A geofence as seen for one selected customer (`scope`): the geofences of its map. */
export type MirroredGeofence = Geofence & { scope: string };

export class RastroDb extends Dexie {
  lastLocations!: Table<MirroredLocation, [string, string]>;
  vehicles!: EntityTable<Vehicle, 'id'>;
  drivers!: EntityTable<Driver, 'id'>;
  syncState!: EntityTable<SyncState, 'key'>;
  geofences!: Table<MirroredGeofence, [string, string]>;

  constructor(name = 'rastro') {
    super(name);
    this.version(1).stores({
      vehicles: 'id, clientId, plate, updatedAt',
      drivers: 'id, clientId, completName, updatedAt',
      syncState: 'key',
    });
    this.version(2).stores({ lastLocations: '[scope+id], scope' });
    this.version(3).stores({ geofences: '[scope+id], scope' });
  }
}

export const db = new RastroDb();

/** Empties every table (the mirror of what the signed-in user could see). */
export async function clearMirror(database: RastroDb = db): Promise<void> {
  await database.transaction('rw', database.tables, () =>
    Promise.all(database.tables.map((table) => table.clear())),
  );
}

/**
 * Writes that finish after a sign-out (a sync or a live batch still in flight) must not put
 * the previous user's data back: every writer checks this first.
 */
export function signedIn(): boolean {
  return session.accessToken() !== null;
}

// A shared phone keeps nothing of the previous user.
onSignOut(() => clearMirror(db));
