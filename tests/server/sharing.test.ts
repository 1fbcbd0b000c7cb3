import { describe, expect, it } from 'vitest';
import { as, backends, demoClients, type TestServer, useServer } from './harness';

let round = 0;

/** Three new vehicles: two of Transportes Norte, one of Logística Sul. */
async function fleetOf(s: TestServer) {
  round += 1;
  const { north, south } = await demoClients(s);
  const admin = await as(s, 'admin@rastro.demo');
  const make = async (clientId: string, plate: string) =>
    (
      await admin.call('POST', '/registros/vehicle', {
        clientId,
        name: `Veículo ${plate}`,
        plate,
        type: 'car',
      })
    ).body.id as string;
  return {
    north,
    south,
    a: await make(north, `SHR${round}A11`),
    b: await make(north, `SHR${round}B22`),
    c: await make(south, `SHR${round}C33`),
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
    const none = await visitor.call('GET', `/registros/vehicle?clientId=${north}`);
    expect(none.body.vehicles).toEqual([]);
    expect((await visitor.call('GET', `/registros/vehicle/${a}`)).status).toBe(404);

    const link = await admin.call(
      'POST',
      `/registros/visitor-role/add-vehicle/${visitor.user.id}`,
      { vehicle: a },
    );
    expect(link.status).toBe(200);
    const listed = await admin.call(
      'GET',
      `/registros/visitor-role/get-vehiculos-by-visitor/${visitor.user.id}`,
    );
    expect(listed.body.map((x: { plate: string }) => x.plate)).toEqual([`SHR${round}A11`]);
    // The visitor's own view changed; tokens of the visitor still work.
    const some = await visitor.call('GET', `/registros/vehicle?clientId=${north}`);
    expect(some.body.vehicles.map((x: { id: string }) => x.id)).toEqual([a]);
    expect((await visitor.call('GET', `/registros/vehicle/${a}`)).status).toBe(200);
    expect((await visitor.call('GET', `/registros/vehicle/${b}`)).status).toBe(404);
    expect((await visitor.call('GET', '/registros/driver')).body.drivers).toEqual([]);

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
    const created = await manager.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'Entrega cliente X',
      vehicleIds: [a],
      expiresInHours: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Entrega cliente X',
      state: 'active',
      vehicleIds: [a],
    });
    expect(created.body.link).toBe(`http://rastro.test/temp-access/${created.body.token}`);

    const publicView = await s.request(`/registros/temp-access/${created.body.token}`);
    expect(publicView.status).toBe(200);
    expect(await publicView.json()).toMatchObject({
      name: 'Entrega cliente X',
      vehicles: [{ plate: `SHR${round}A11`, type: { label: 'Carro' } }],
    });

    const added = await manager.call(
      'POST',
      `/registros/temporaryUser/add-vehicle-to-temporary-user/${created.body.id}`,
      { vehicleId: b },
    );
    expect(added.body.vehicleIds).toEqual([a, b]);
    const replaced = await manager.call(
      'PUT',
      `/registros/temporaryUser/update-vehicle-to-temporary-user/${created.body.id}`,
      { vehicleIds: [b] },
    );
    expect(replaced.body.vehicleIds).toEqual([b]);
    const vehicles = await manager.call(
      'GET',
      `/registros/temporaryUser/vehicles-by-temporary-user/${created.body.id}`,
    );
    expect(vehicles.body.map((x: { plate: string }) => x.plate)).toEqual([`SHR${round}B22`]);
    const renamed = await manager.call('PUT', `/registros/temporaryUser/${created.body.id}`, {
      name: 'Entrega Y',
      expiresInHours: 48,
    });
    expect(renamed.body.name).toBe('Entrega Y');

    expect(
      (await manager.call('DELETE', `/registros/temporaryUser/${created.body.id}`)).status,
    ).toBe(200);
    const gone = await s.request(`/registros/temp-access/${created.body.token}`);
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toBe('Este link expirou ou foi revogado.');
    const list = await manager.call('GET', '/registros/temporaryUser/linkedTemporaryUsers');
    expect(list.body.find((x: { id: string }) => x.id === created.body.id).state).toBe('revoked');
    expect((await s.request('/registros/temp-access/nao-existe-1234567890')).status).toBe(410);
  });

  it('refuses links to vehicles the user cannot see and bad durations', async () => {
    const s = server();
    const { c } = await fleetOf(s);
    const north = await as(s, 'gestor.norte@rastro.demo');
    const other = await north.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'X',
      vehicleIds: [c],
    });
    expect(other.status).toBe(404);
    const zero = await north.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'X',
      vehicleIds: [],
    });
    expect(zero.body.message).toContain('Escolha pelo menos um veículo');
    const long = await north.call('POST', '/registros/temporaryUser/create_temporary_link', {
      name: 'X',
      vehicleIds: [c],
      expiresInHours: 10_000,
    });
    expect(long.body.message).toContain('No máximo 90 dias');
  });
});
