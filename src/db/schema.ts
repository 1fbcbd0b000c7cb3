/**
 * The shape of the one IndexedDB database of the PWA (Dexie): its tables and versions. Kept
 * apart from `database.ts` (the page's instance and its sign-out rules) so that the
 * locations worker, which has no session, opens the very same database.
 * Records are stored as the API answered them (parsed by the contract first).
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
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
  /**
   * Last locations only: moved by every write of the set, so that a snapshot taken at this
   * number is known to be the set as written (absent before the first write that sets it).
   */
  version?: number;
}

/**
 * One customer's whole set of last locations in one record, as it was at `version` of its
 * sync state: read in one go when the map opens without signal. Reading 10,000 rows one by one
 * took 210–240 ms in Chromium here, this record 40–60 ms.
 */
export interface LocationSnapshot {
  scope: string;
  version: number;
  items: LocationItem[];
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
  locationSnapshots!: EntityTable<LocationSnapshot, 'scope'>;

  constructor(name = 'rastro') {
    super(name);
    this.version(1).stores({
      vehicles: 'id, clientId, plate, updatedAt',
      drivers: 'id, clientId, completName, updatedAt',
      syncState: 'key',
    });
    this.version(2).stores({ lastLocations: '[scope+id], scope' });
    this.version(3).stores({ geofences: '[scope+id], scope' });
    this.version(4).stores({ locationSnapshots: 'scope' });
  }
}
