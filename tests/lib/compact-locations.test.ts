/**
 * The compact form of lastLocation (src/contract/compact-locations.ts) gives back exactly the
 * items it was made from: event ids beyond what a JS number holds, trackers without vehicle,
 * default names, missing values, a tracker without GPS, a driver with an expired CNH, and an
 * empty list.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CompactLocationsSchema,
  compactLocations,
  expandLocations,
  type LocationItem,
} from '../../src/contract';

const item = (over: Partial<LocationItem>): LocationItem => ({
  id: '8f0c5b1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
  type: 'vehicle',
  name: 'Caminhão 1',
  plate: 'ABC1D23',
  vehicleType: 'truck',
  trackerId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
  clientId: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
  latitude: -8.054321,
  longitude: -34.881234,
  speed: 42.5,
  course: 180,
  ignition: true,
  battery: 12.6,
  driver: 'Maria',
  fixTime: '2026-11-22T10:00:00.123Z',
  receivedAt: '2026-11-22T10:00:01.456Z',
  eventId: '9007199254740993',
  ...over,
});

describe('the compact lastLocation', () => {
  it('round-trips every kind of item, in order', () => {
    const items = [
      item({}),
      item({
        id: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901',
        trackerId: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901',
        type: 'tracker',
        name: 'Rastreador',
        plate: null,
        vehicleType: null,
        speed: null,
        course: null,
        ignition: null,
        battery: null,
        driver: null,
        fixTime: '2026-11-20T08:30:00.000Z',
        receivedAt: '2026-11-22T09:59:59.999Z',
        eventId: '9007199254740995',
      }),
      item({
        id: '3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b',
        name: 'Veículo',
        clientId: '4d5e6f70-8192-43a4-b5c6-d7e8f90a1b2c',
        vehicleType: 'car',
        eventId: '12',
      }),
      // Reporting without GPS since a moment after its last fix.
      item({
        id: '5e6f7081-92a3-44b5-86c7-d8e9f0a1b2c3',
        eventId: '13',
        noGpsSince: '2026-11-22T10:05:00.000Z',
      }),
      // Driven by someone whose CNH has expired, with and without a fix.
      item({
        id: '6f708192-a3b4-45c6-97d8-e9f0a1b2c3d4',
        eventId: '14',
        driverLicenseExpired: true,
      }),
      item({
        id: '708192a3-b4c5-46d7-88e9-f0a1b2c3d4e5',
        eventId: '15',
        driverLicenseExpired: true,
        noGpsSince: '2026-11-22T10:06:00.000Z',
      }),
    ];
    const compact = v.parse(
      CompactLocationsSchema,
      JSON.parse(JSON.stringify(compactLocations(items))),
    );
    expect(expandLocations(compact)).toEqual(items);
    expect(compact.rows[1]?.[1]).toBeNull();
    expect(compact.rows[2]?.[2]).toBeNull();
    expect(compact.clients).toHaveLength(2);
    // The flag is sent only where it is true.
    const sent = compactLocations(items).rows.map((row) => JSON.stringify(row));
    expect(sent.map((row) => row.endsWith(',1]'))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
  });

  it('round-trips an empty list', () => {
    expect(expandLocations(compactLocations([]))).toEqual([]);
  });
});
