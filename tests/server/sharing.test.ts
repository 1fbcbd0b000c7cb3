import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LINK_REVOKED } from '../../server/sharing/routes';
import type { SharedLocations, TempAccessView, TemporaryUser, Vehicle } from '../../src/contract';
import type { DriverPage, SharedVehicle, VehiclePage } from './api-types';
import {
  as,
  backends,
  demoClients,
  type ErrorBody,
  jsonOf,
  present,
  type TestServer,
  useServer,
} from './harness';

let round = 0;
/** A plate prefix of its own for each round (both backends share the counter). */
const prefix = () => `SH${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[round % 26]}`;

/** Three new vehicles: two of Transportes Norte, one of Logística Sul. */
async function fleetOf(s: TestServer) {
  round += 1;
  const { north, south } = await demoClients(s);
  const admin = await as(s, 'admin@rastro.demo');
  const make = async (clientId: string, plate: string) =>
    (
      await admin.call<Vehicle>('POST', '/registros/vehicle', {
        clientId,
        name: `Veículo ${plate}`,
        plate,
        type: 'car',
      })
    ).body.id;
  return {
    north,
    south,
    a: await make(north, `${prefix()}1A11`),
    b: await make(north, `${prefix()}2B22`),
    c: await make(south, `${prefix()}3C33`),
  };
}

describe.each(await backends())('sharing on %s', (backend) => {
  const server = useServer(backend);

  it('lets a VISITOR see only the vehicles linked to them', async () => {
    const s = server();
    const { north, a, b } = await fleetOf(s);
    const admin = await as(s, 'admin@rastro.demo');
    const visitor = await as(s, 'terceiro@rastro.demo');
    // terceiro@ belongs to the mother company, which sees north's vehicles through its subtree.
    const none = await visitor.call<VehiclePage>('GET', `/registros/vehicle?clientId=${north}`);
    expect(none.body.vehicles).toEqual([]);
    expect((await visitor.call('GET', `/registros/vehicle/${a}`)).status).toBe(404);

    const link = await admin.call(
      'POST',
      `/registros/visitor-role/add-vehicle/${visitor.user.id}`,
      { vehicle: a },
    );
    expect(link.status).toBe(200);
    const listed = await admin.call<SharedVehicle[]>(
      'GET',
      `/registros/visitor-role/get-vehiculos-by-visitor/${visitor.user.id}`,
    );
    expect(listed.body.map((x) => x.plate)).toEqual([`${prefix()}1A11`]);
    // The visitor's own view changed; tokens of the visitor still work.
    const some = await visitor.call<VehiclePage>('GET', `/registros/vehicle?clientId=${north}`);
    expect(some.body.vehicles.map((x) => x.id)).toEqual([a]);
    expect((await visitor.call('GET', `/registros/vehicle/${a}`)).status).toBe(200);
    expect((await visitor.call('GET', `/registros/vehicle/${b}`)).status).toBe(404);
    expect((await visitor.call<DriverPage>('GET', '/registros/driver')).body.drivers).toEqual([]);

    const notVisitor = await admin.call(
      'POST',
      `/registros/visitor-role/add-vehicle/${admin.user.id}`,
      { vehicle: a },
    );
    expect(notVisitor.status).toBe(400);
    const removed = await admin.call(
      'DELETE',
      `/registros/visitor-role/${visitor.user.id}/vehicles/${a}`,
    );
    expect(removed.status).toBe(200);
    expect((await visitor.call('GET', `/registros/vehicle/${a}`)).status).toBe(404);
  });

  it('shares vehicles through a temporary link until it is revoked', async () => {
    const s = server();
    const { a, b, c } = await fleetOf(s);
    const manager = await as(s, 'gestor@rastro.demo');
    const mixed = await manager.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'Mista',
      vehicleIds: [a, c],
    });
    expect(mixed.status).toBe(400);
    const created = await manager.call<TemporaryUser>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'Entrega cliente X',
        vehicleIds: [a],
        expiresInHours: 2,
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Entrega cliente X',
      state: 'active',
      vehicleIds: [a],
    });
    expect(created.body.link).toBe(`http://rastro.test/temp-access/${created.body.token}`);

    const publicView = await s.request(`/registros/temp-access/${created.body.token}`);
    expect(publicView.status).toBe(200);
    expect(await jsonOf<TempAccessView>(publicView)).toMatchObject({
      name: 'Entrega cliente X',
      vehicles: [{ plate: `${prefix()}1A11`, type: { label: 'Carro' } }],
    });

    const added = await manager.call<TemporaryUser>(
      'POST',
      `/registros/temporaryUser/add-vehicle-to-temporary-user/${created.body.id}`,
      { vehicleId: b },
    );
    expect(added.body.vehicleIds).toEqual([a, b]);
    // The list names a link's vehicles by plate (one read for all the links).
    const listed = await manager.call<TemporaryUser[]>(
      'GET',
      '/registros/temporaryUser/linkedTemporaryUsers',
    );
    expect(listed.body.find((x) => x.id === created.body.id)?.plates).toEqual([
      `${prefix()}1A11`,
      `${prefix()}2B22`,
    ]);
    const replaced = await manager.call<TemporaryUser>(
      'PUT',
      `/registros/temporaryUser/update-vehicle-to-temporary-user/${created.body.id}`,
      { vehicleIds: [b] },
    );
    expect(replaced.body.vehicleIds).toEqual([b]);
    const vehicles = await manager.call<SharedVehicle[]>(
      'GET',
      `/registros/temporaryUser/vehicles-by-temporary-user/${created.body.id}`,
    );
    expect(vehicles.body.map((x) => x.plate)).toEqual([`${prefix()}2B22`]);
    const renamed = await manager.call<TemporaryUser>(
      'PUT',
      `/registros/temporaryUser/${created.body.id}`,
      {
        name: 'Entrega Y',
        expiresInHours: 48,
      },
    );
    expect(renamed.body.name).toBe('Entrega Y');

    expect(
      (await manager.call('DELETE', `/registros/temporaryUser/${created.body.id}`)).status,
    ).toBe(200);
    const gone = await s.request(`/registros/temp-access/${created.body.token}`);
    expect(gone.status).toBe(410);
    expect((await jsonOf<ErrorBody>(gone)).message).toBe('Este link expirou ou foi revogado.');
    const list = await manager.call<TemporaryUser[]>(
      'GET',
      '/registros/temporaryUser/linkedTemporaryUsers',
    );
    expect(list.body.find((x) => x.id === created.body.id)?.state).toBe('revoked');
    // A revoked link is kept as it was: no renaming, no vehicles in or out.
    const id = created.body.id;
    for (const [method, path, body] of [
      ['PUT', `/registros/temporaryUser/${id}`, { name: 'Outro' }],
      ['POST', `/registros/temporaryUser/add-vehicle-to-temporary-user/${id}`, { vehicleId: a }],
      [
        'PUT',
        `/registros/temporaryUser/update-vehicle-to-temporary-user/${id}`,
        { vehicleIds: [a] },
      ],
    ] as const) {
      const refused = await manager.call<ErrorBody>(method, path, body);
      expect([refused.status, refused.body.message], path).toEqual([409, LINK_REVOKED]);
    }
    const after = await manager.call<TemporaryUser>('GET', `/registros/temporaryUser/${id}`);
    expect([after.body.name, after.body.vehicleIds]).toEqual(['Entrega Y', [b]]);
    // A token that opens no link, well formed or cut short when pasted: the same plain answer.
    for (const token of ['nao-existe-1234567890', 'abc', 'x'.repeat(65)]) {
      for (const tail of ['', '/locations']) {
        const res = await s.request(`/registros/temp-access/${token}${tail}`);
        expect([res.status, (await jsonOf<ErrorBody>(res)).message], token).toEqual([
          410,
          'Link inválido: confira se ele foi copiado inteiro.',
        ]);
      }
    }
  });

  it('names in the list only the vehicles still of the customer that shared them', async () => {
    const s = server();
    const { south, a, b } = await fleetOf(s);
    const admin = await as(s, 'admin@rastro.demo');
    const created = await admin.call<TemporaryUser>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      { name: 'Mudança', vehicleIds: [b, a], expiresInHours: 1 },
    );
    expect(created.status).toBe(201);
    const platesOf = async () =>
      (
        await admin.call<TemporaryUser[]>('GET', '/registros/temporaryUser/linkedTemporaryUsers')
      ).body.find((x) => x.id === created.body.id)?.plates;
    expect(await platesOf()).toEqual([`${prefix()}1A11`, `${prefix()}2B22`]);
    // `a` moves to another customer: no longer the link's, so not named by it either.
    const moved = await admin.call('PATCH', `/registros/vehicle/${a}`, { clientId: south });
    expect(moved.status).toBe(200);
    expect(await platesOf()).toEqual([`${prefix()}2B22`]);
  });

  it("shows a link's vehicles live on a map, nothing else, and nothing once it stops", async () => {
    const s = server();
    const { north, a, b } = await fleetOf(s);
    const admin = await as(s, 'admin@rastro.demo');
    // Two reporting vehicles of Transportes Norte; only `a` is shared.
    for (const [vehicleId, identifier] of [
      [a, `shr-a-${round}`],
      [b, `shr-b-${round}`],
    ] as const) {
      const tracker = await admin.call('POST', '/registros/tracker', {
        clientId: north,
        identifier,
        provider: 'rastro',
        vehicleId,
      });
      expect(tracker.status).toBe(201);
    }
    const report = (identifier: string, latitude: number, seconds: number) =>
      s.deps.pipeline.accept(identifier, [
        {
          fixTime: new Date(Date.now() - seconds * 1000),
          latitude,
          longitude: -34.88,
          speed: 40,
          course: 90,
          ignition: true,
          driverRfid: 'ABCDEF01',
          attributes: {},
        },
      ]);
    await report(`shr-a-${round}`, -8.05, 60);
    await report(`shr-b-${round}`, -8.06, 60);
    const link = await admin.call<TemporaryUser>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'Rastreio da entrega',
        vehicleIds: [a],
      },
    );
    const path = `/registros/temp-access/${link.body.token}/locations`;

    const first = await s.request(path);
    expect(first.status).toBe(200);
    const body = await jsonOf<SharedLocations>(first);
    expect(body).toMatchObject({ name: 'Rastreio da entrega', expiresAt: link.body.expiresAt });
    expect(body.vehicles.map((x) => x.id)).toEqual([a]);
    expect(body.locations).toHaveLength(1);
    const location = present(body.locations[0], 'the shared location');
    expect(location).toMatchObject({ id: a, latitude: -8.05, speed: 40 });
    // Whoever holds the link is outside the customer: no driver, no tracker.
    expect(Object.keys(location)).not.toEqual(
      expect.arrayContaining(['driver', 'trackerId', 'clientId']),
    );

    // A newer fix of the shared vehicle shows on the next read.
    await report(`shr-a-${round}`, -8.07, 0);
    const moved = await jsonOf<SharedLocations>(await s.request(path));
    expect(moved.locations[0]?.latitude).toBe(-8.07);

    // Revoked: nothing, with the same message as the view.
    await admin.call('DELETE', `/registros/temporaryUser/${link.body.id}`);
    const gone = await s.request(path);
    expect(gone.status).toBe(410);
    expect((await jsonOf<ErrorBody>(gone)).message).toBe('Este link expirou ou foi revogado.');
  });

  it('stops showing positions once a link expires', async () => {
    const s = server();
    const { a } = await fleetOf(s);
    const admin = await as(s, 'admin@rastro.demo');
    const link = await admin.call<TemporaryUser>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'Curto',
        vehicleIds: [a],
        expiresInHours: 1,
      },
    );
    const path = `/registros/temp-access/${link.body.token}/locations`;
    expect((await s.request(path)).status).toBe(200);
    await s.deps.database.db.execute(
      sql`update temporary_users set expires_at = now() - interval '1 second' where id = ${link.body.id}`,
    );
    expect((await s.request(path)).status).toBe(410);
    expect((await s.request('/registros/temp-access/nao-existe-1234567890/locations')).status).toBe(
      410,
    );
  });

  it('refuses links to vehicles the user cannot see and bad durations', async () => {
    const s = server();
    const { c } = await fleetOf(s);
    const north = await as(s, 'gestor.norte@rastro.demo');
    const other = await north.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'X',
      vehicleIds: [c],
    });
    expect(other.status, JSON.stringify(other.body)).toBe(404);
    const zero = await north.call<ErrorBody>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'X',
        vehicleIds: [],
      },
    );
    expect(zero.body.message).toContain('Escolha pelo menos um veículo');
    const long = await north.call<ErrorBody>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      {
        name: 'X',
        vehicleIds: [c],
        expiresInHours: 10_000,
      },
    );
    expect(long.body.message).toContain('No máximo 90 dias');
  });
});
