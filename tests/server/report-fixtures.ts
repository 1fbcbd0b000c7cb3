/** Vehicles with trackers and their fixes, for the odometer and report suites. */
import { expect } from 'vitest';
import type { Deps } from '../../server/deps';
import type { Fix } from '../../server/ingest/queries/positions';
import type { Tracker, Vehicle } from '../../src/contract';
import { as, type TestServer } from './harness';

let plates = 0;

/** A vehicle with a tracker of our own ingest, in `clientId` (the admin's company by default). */
export async function vehicleWithTracker(s: TestServer, clientId?: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const client = clientId ?? admin.user.clientId;
  plates += 1;
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  // Mercosul plates (AAA9A99), one per call.
  const plate = `RP${letter(plates)}${plates % 10}${letter(Math.floor(plates / 10))}${String(plates % 100).padStart(2, '0')}`;
  const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
    clientId: client,
    name: `Relatório ${plate}`,
    plate,
    type: 'truck',
  });
  expect(vehicle.status, JSON.stringify(vehicle.body)).toBe(201);
  const identifier = `rpt-${plate.toLowerCase()}-${Date.now()}`;
  const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
    clientId: client,
    identifier,
    provider: 'rastro',
    vehicleId: vehicle.body.id,
  });
  expect(tracker.status, JSON.stringify(tracker.body)).toBe(201);
  return {
    vehicleId: vehicle.body.id,
    trackerId: tracker.body.id,
    identifier,
    plate,
    admin,
  };
}

/** Sends fixes through the ingest pipeline in chunks of `chunk` (as a black box would). */
export async function ingest(deps: Deps, identifier: string, fixes: Fix[], chunk = 400) {
  let stored = 0;
  for (let i = 0; i < fixes.length; i += chunk) {
    const result = await deps.pipeline.accept(identifier, fixes.slice(i, i + chunk));
    expect(result.status).toBe('ok');
    stored += result.stored;
  }
  return stored;
}
