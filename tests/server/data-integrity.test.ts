/**
 * Data kept right: driver and vehicle names of last locations come from the location's own
 * customer (an RFID tag is unique per customer only), lastLocation without a customer
 * answers everything visible, a vehicle or tracker cannot move to another customer while
 * linked (and never to one the caller cannot see), and partition upkeep tells real failures
 * apart from the expected skip.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ensurePartitions, partitionName } from '../../server/platform/db/partitions';
import type { LocationItem, Tracker, Vehicle } from '../../src/contract';
import {
  as,
  demoClients,
  type ErrorBody,
  everyBackend,
  type TestServer,
  useServer,
} from './harness';

async function trackerFor(s: TestServer, clientId: string, identifier: string, plate: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
    clientId,
    name: `Veículo ${plate}`,
    plate,
    type: 'truck',
  });
  const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
    clientId,
    identifier,
    provider: 'rastro',
    vehicleId: vehicle.body.id,
  });
  expect(tracker.status).toBe(201);
  return { vehicle: vehicle.body.id, tracker: tracker.body.id };
}

describe.each(await everyBackend())('data kept right on %s', (backend) => {
  const server = useServer(backend);

  it("names a location's driver from its own customer, though another uses the same tag", async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    for (const [clientId, name, cpf] of [
      [north, 'Nara do Norte', '52998224725'],
      [south, 'Sérgio do Sul', '11144477735'],
    ] as const) {
      const driver = await admin.call('POST', '/registros/driver', {
        clientId,
        completName: name,
        cpf,
        rfidCode: 'CAFE0001',
      });
      expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    }
    const duplicate = await admin.call('POST', '/registros/driver', {
      clientId: north,
      completName: 'Outro do Norte',
      cpf: '39053344705',
      rfidCode: 'CAFE0001',
    });
    expect(duplicate.status).toBe(409);
    await trackerFor(s, north, 'rfid-norte', 'RFN1A11');
    await trackerFor(s, south, 'rfid-sul', 'RFS2B22');
    const at = new Date(Date.now() - 5000);
    for (const identifier of ['rfid-norte', 'rfid-sul'])
      await s.deps.pipeline.accept(identifier, [
        { fixTime: at, latitude: -8.05, longitude: -34.9, driverRfid: 'CAFE0001', attributes: {} },
      ]);
    const items = (await admin.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    expect(items.find((i) => i.plate === 'RFN1A11')?.driver).toBe('Nara do Norte');
    expect(items.find((i) => i.plate === 'RFS2B22')?.driver).toBe('Sérgio do Sul');
    // Each customer's own users see their own driver's name only.
    const southManager = await as(s, 'gestor.sul@rastro.demo');
    const theirs = (
      await southManager.call<LocationItem[]>('GET', '/registros/real-time/lastLocation')
    ).body;
    expect(theirs.map((i) => i.plate)).toEqual(['RFS2B22']);
    expect(theirs[0]?.driver).toBe('Sérgio do Sul');
  });

  it('answers lastLocation without a customer with everything the caller may see', async () => {
    const s = server();
    const { north, south, mother } = await demoClients(s);
    const mine = await trackerFor(s, mother, 'todos-mae', 'TOD0A00');
    await trackerFor(s, north, 'todos-norte', 'TOD1A11');
    await trackerFor(s, south, 'todos-sul', 'TOD2B22');
    const at = new Date(Date.now() - 3000);
    for (const identifier of ['todos-mae', 'todos-norte', 'todos-sul'])
      await s.deps.pipeline.accept(identifier, [
        { fixTime: at, latitude: -8.06, longitude: -34.91, attributes: {} },
      ]);
    const manager = await as(s, 'gestor@rastro.demo');
    const plates = async (query: string) =>
      (await manager.call<LocationItem[]>('GET', `/registros/real-time/lastLocation${query}`)).body
        .map((i) => i.plate)
        .filter((plate) => plate?.startsWith('TOD'))
        .sort();
    expect(await plates('')).toEqual(['TOD0A00', 'TOD1A11', 'TOD2B22']);
    expect(await plates('?vehicleIds=&fleets=')).toEqual(['TOD0A00', 'TOD1A11', 'TOD2B22']);
    expect(await plates(`?clientId=${north}`)).toEqual(['TOD1A11']);
    expect(await plates(`?vehicleIds=${mine.vehicle}`)).toEqual(['TOD0A00']);
  });

  it('refuses to move a linked vehicle or tracker to another customer, and explains', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const { vehicle, tracker } = await trackerFor(s, north, 'muda-1', 'MUD1A11');
    const admin = await as(s, 'admin@rastro.demo');
    const movedVehicle = await admin.call<ErrorBody>('PATCH', `/registros/vehicle/${vehicle}`, {
      clientId: south,
    });
    expect(movedVehicle.status).toBe(409);
    expect(movedVehicle.body.message).toBe(
      'Este veículo tem rastreador vinculado. Desvincule o rastreador antes de mudar o cliente do veículo.',
    );
    const movedTracker = await admin.call<ErrorBody>('PATCH', `/registros/tracker/${tracker}`, {
      clientId: south,
    });
    expect(movedTracker.status).toBe(409);
    expect(movedTracker.body.message).toMatch(/^Este rastreador está vinculado a um veículo/);
    // Nothing moved.
    expect((await admin.call<Vehicle>('GET', `/registros/vehicle/${vehicle}`)).body.clientId).toBe(
      north,
    );
    expect((await admin.call<Tracker>('GET', `/registros/tracker/${tracker}`)).body.clientId).toBe(
      north,
    );

    // Unlinked in the same change, the tracker moves; then the vehicle, free, moves too.
    const together = await admin.call('PATCH', `/registros/tracker/${tracker}`, {
      clientId: south,
      vehicleId: null,
    });
    expect(together.status).toBe(200);
    expect(
      (await admin.call('PATCH', `/registros/vehicle/${vehicle}`, { clientId: south })).status,
    ).toBe(200);
  });

  it('never moves a record to a customer the caller cannot see (tenancy)', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const operator = await as(s, 'operador.norte@rastro.demo');
    const vehicle = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Fica no Norte',
      plate: 'TEN1A11',
      type: 'car',
    });
    const moved = await operator.call('PATCH', `/registros/vehicle/${vehicle.body.id}`, {
      clientId: south,
    });
    expect(moved.status).toBe(404);
    const tracker = await operator.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'fica-no-norte',
      provider: 'rastro',
    });
    const movedTracker = await operator.call('PATCH', `/registros/tracker/${tracker.body.id}`, {
      clientId: south,
    });
    expect(movedTracker.status).toBe(404);
    const admin = await as(s, 'admin@rastro.demo');
    expect(
      (await admin.call<Vehicle>('GET', `/registros/vehicle/${vehicle.body.id}`)).body.clientId,
    ).toBe(north);
  });

  it('reports a real partition failure apart from a month left in the default partition', async () => {
    const { db } = server().deps.database;
    // A month far ahead that already holds a fix (stored in the default partition).
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 8, 15);
    const [tracker] = (
      (await db.execute(sql`select id, client_id from trackers limit 1`)) as unknown as {
        rows: { id: string; client_id: string }[];
      }
    ).rows;
    await db.execute(sql`insert into positions (tracker_id, client_id, fix_time, latitude, longitude)
      values (${tracker?.id}::uuid, ${tracker?.client_id}::uuid, ${ahead.toISOString()}::timestamptz, -8, -34)`);
    const skipped = await ensurePartitions(db, ahead, 0);
    expect(skipped).toMatchObject({ created: [], skipped: [partitionName(ahead)], failed: [] });
    // A month the database cannot represent: a real error, reported with its cause.
    const broken = await ensurePartitions(db, new Date(Date.UTC(9999, 11, 10)), 1);
    expect(broken.skipped).toEqual([]);
    expect(broken.failed.map((f) => f.name)).toEqual(['positions_9999_12', 'positions_10000_01']);
    expect(broken.failed[0]?.error).toBeInstanceOf(Error);
  });
});
