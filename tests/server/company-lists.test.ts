/**
 * Lists agree with the map: a customer's vehicles, trackers, SIM cards, drivers and fleets
 * include the companies below it, as its map (lastLocation) does, and never more than the
 * caller sees.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_FLEET } from '../../server/demo/fleet';
import type { LocationItem, Paging } from '../../src/contract';
import type { VehiclePage } from './api-types';
import { as, backends, demoClients, useServer } from './harness';

describe.each(await backends())('company lists on %s', (backend) => {
  const server = useServer(backend, () => ({ SEED_DEMO_FLEET: 'true' }));

  it('counts the same vehicles for a mother company as its map', async () => {
    const s = server();
    const { mother, north, south } = await demoClients(s);
    // Every demo tracker reports once.
    for (const vehicle of DEMO_FLEET) {
      const result = await s.deps.pipeline.accept(vehicle.identifier, [
        { fixTime: new Date(), latitude: -8.06, longitude: -34.9, speed: 10, attributes: {} },
      ]);
      expect(result.status).toBe('ok');
    }
    const admin = await as(s, 'admin@rastro.demo');
    const list = await admin.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${mother}&limit=1000`,
    );
    const map = await admin.call<LocationItem[]>(
      'GET',
      `/registros/real-time/lastLocation?clientId=${mother}`,
    );
    expect(list.body.total).toBe(DEMO_FLEET.length);
    expect(map.body.filter((item) => item.type === 'vehicle')).toHaveLength(list.body.total);
    expect(new Set(list.body.vehicles.map((v) => v.clientId))).toEqual(
      new Set([mother, north, south]),
    );

    // A child company's list is its own.
    const own = await admin.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&limit=1000`,
    );
    expect(own.body.total).toBe(DEMO_FLEET.filter((v) => v.company === 'north').length);
    expect(own.body.vehicles.every((v) => v.clientId === north)).toBe(true);
  });

  it('does the same for trackers, SIM cards, drivers and fleets', async () => {
    const s = server();
    const { mother, north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    for (const [path, key] of [
      ['/registros/tracker', 'trackers'],
      ['/registros/simcard', 'simcards'],
      ['/registros/driver', 'drivers'],
      ['/tech-integracao/v1/fleets', 'fleets'],
    ] as const) {
      const all = await admin.call<Record<typeof key, { clientId: string }[]> & Paging>(
        'GET',
        `${path}?clientId=${mother}&limit=1000`,
      );
      const owners = new Set(all.body[key].map((x) => x.clientId));
      expect(owners.has(north) && owners.has(south), path).toBe(true);
      const child = await admin.call<Paging>('GET', `${path}?clientId=${south}&limit=1000`);
      expect(child.body.total, path).toBeLessThan(all.body.total);
    }
  });

  it('shows two automated reports of the demo, each with its vehicles', async () => {
    const s = server();
    const { mother, north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const page = await admin.call<{ rules: { clientId: string; vehicleIds: string[] }[] }>(
      'GET',
      `/registros/crud-reports-processor?clientId=${mother}&limit=100`,
    );
    expect(page.status).toBe(200);
    expect(new Set(page.body.rules.map((r) => r.clientId))).toEqual(new Set([mother, north]));
    expect(page.body.rules.map((r) => r.vehicleIds.length).sort()).toEqual([1, 2]);
  });

  it("never lists more than the caller sees, even when asked for a mother's list", async () => {
    const s = server();
    const { mother, north } = await demoClients(s);
    const northManager = await as(s, 'gestor.norte@rastro.demo');
    const above = await northManager.call('GET', `/registros/vehicle?clientId=${mother}`);
    expect(above.status).toBe(404);
    const own = await northManager.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&limit=1000`,
    );
    expect(own.body.vehicles.every((v) => v.clientId === north)).toBe(true);
  });
});
