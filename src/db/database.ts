/**
 * The one IndexedDB database of the PWA (Dexie). It mirrors what a supervisor must still see
 * without signal: vehicles and drivers, per customer, and when each mirror last synced.
 * Records are stored as the API answered them (parsed by the contract first).
 */
import Dexie, { type EntityTable } from 'dexie';
import type { Driver, Vehicle } from '../contract';

export interface SyncState {
  /** '<resource>:<clientId>' */
  key: string;
  /** The newest updatedAt seen from the server: the next sync asks for what changed after. */
  watermark: string;
  /** When this device last synced (shown as "dados de HH:MM"). */
  syncedAt: string;
}

export class RastroDb extends Dexie {
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
  }
}

export const db = new RastroDb();
