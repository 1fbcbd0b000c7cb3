/**
 * The one IndexedDB database of the PWA (Dexie). It mirrors what a supervisor must still see
 * without signal: vehicles, drivers and last locations, per customer, and when each mirror
 * last synced.
 * Records are stored as the API answered them (parsed by the contract first).
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { Driver, LocationItem, Vehicle } from '../contract';

export interface SyncState {
  /** '<resource>:<clientId>' */
  key: string;
  /** The newest updatedAt seen from the server: the next sync asks for what changed after. */
  watermark: string;
  /** When this device last synced (shown as "dados de HH:MM"). */
  syncedAt: string;
}

/** A last location as seen for one selected customer (`scope`): the map of that customer. */
export type MirroredLocation = LocationItem & { scope: string };

export class RastroDb extends Dexie {
  lastLocations!: Table<MirroredLocation, [string, string]>;
  vehicles!: EntityTable<Vehicle, 'id'>;
  drivers!: EntityTable<Driver, 'id'>;
  syncState!: EntityTable<SyncState, 'key'>;

  constructor(name = 'rastro') {
    super(name);
    this.version(1).stores({
      vehicles: 'id, clientId, plate, updatedAt',
      drivers: 'id, clientId, completName, updatedAt',
      syncState: 'key',
    });
    this.version(2).stores({ lastLocations: '[scope+id], scope' });
  }
}

export const db = new RastroDb();
