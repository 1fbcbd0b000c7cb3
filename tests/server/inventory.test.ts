import { describe, expect, it } from 'vitest';
import { FLEET_MOVE_VEHICLES } from '../../server/inventory/routes/inventory';
import type { Fleet, SimCard, Tracker, Vehicle } from '../../src/contract';
import { unmaskPlate } from '../../src/lib/unmask';
import type { DriverPage, TrackerTypePage, VehiclePage } from './api-types';
import { as, backends, demoClients, type ErrorBody, present, useServer } from './harness';

const VALID_IMEI = '490154203237518';

describe.each(await backends())('inventory on %s', (backend) => {
  const server = useServer(backend);

  it('registers vehicles with old and Mercosul plates, unmasked, with the type label', async () => {
    const { north } = await demoClients(server());
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const old = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Baú 01',
      plate: 'abc-1234',
      type: 'truck',
      brand: 'Volvo',
      year: 2020,
      modelYear: 2021,
      renavam: '12345678901',
      chassis: '9bwzzz377vt004251',
    });
    expect(old.status).toBe(201);
    expect(old.body).toMatchObject({
      plate: 'ABC1234',
      type: { id: 'truck', label: 'Caminhão' },
      modelYear: 2021,
      modelYar: 2021,
      images: [],
    });
    const mercosul = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Moto 7',
      plate: 'BRA2E19',
      type: 'motorcycle',
    });
    expect(mercosul.body.plate).toBe('BRA2E19');
    // The chassis is kept in capitals, given on creation or on a change.
    expect(old.body.chassis).toBe('9BWZZZ377VT004251');
    const changed = await operator.call<Vehicle>(
      'PATCH',
      `/registros/vehicle/${mercosul.body.id}`,
      {
        chassis: '9bwzzz377vt004252',
      },
    );
    expect(changed.body.chassis).toBe('9BWZZZ377VT004252');

    const duplicate = await operator.call<ErrorBody>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Outro',
      plate: 'ABC1234',
      type: 'car',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toBe('Já existe um veículo com esta placa');

    for (const [body, message] of [
      [
        { clientId: north, name: 'X', plate: 'AB-123', type: 'car' },
        'plate: Placa inválida: use AAA-9999 ou AAA9A99',
      ],
      // Empty (or only a mask's dash): missing, not malformed.
      [{ clientId: north, name: 'X', plate: ' - ', type: 'car' }, 'plate: Campo obrigatório'],
      [
        { clientId: north, name: 'X', plate: 'XYZ1234', type: 'nave' },
        'type: Tipo de veículo inválido',
      ],
      [
        { clientId: north, name: 'X', plate: 'XYZ1234', type: 'car', year: 1800 },
        'year: Ano inválido',
      ],
      [
        { clientId: north, name: 'X', plate: 'XYZ1234', type: 'car', renavam: '12' },
        'renavam: RENAVAM inválido',
      ],
      [
        { clientId: north, name: 'X', plate: 'XYZ1234', type: 'car', cor: 'azul' },
        'cor: Campo não permitido',
      ],
    ] as const) {
      const res = await operator.call<ErrorBody>('POST', '/registros/vehicle', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }

    const cleared = await operator.call<Vehicle>('PATCH', `/registros/vehicle/${old.body.id}`, {
      brand: null,
      color: 'Branco',
    });
    expect(cleared.body).toMatchObject({ brand: null, color: 'Branco' });
  });

  it('lists vehicles of the selected customer only, searching by vehicleQuery, up to 10000 a page', async () => {
    const { north } = await demoClients(server());
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const missing = await operator.call<ErrorBody>('GET', '/registros/vehicle');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Cliente não informado');
    const found = await operator.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&vehicleQuery=baú`,
    );
    expect(found.body.vehicles.map((x) => x.name)).toEqual(['Baú 01']);
    const byPlate = await operator.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&vehicleQuery=bra2`,
    );
    expect(byPlate.body.vehicles.map((x) => x.plate)).toEqual(['BRA2E19']);
    // A plate is stored without its dash: typed as it is painted, it is found all the same.
    for (const typed of ['BRA-2E19', 'bra 2e19', 'ABC-1234'])
      expect(
        (
          await operator.call<VehiclePage>(
            'GET',
            `/registros/vehicle?clientId=${north}&vehicleQuery=${encodeURIComponent(typed)}`,
          )
        ).body.vehicles.map((x) => x.plate),
      ).toEqual([unmaskPlate(typed)]);
    const all = await operator.call<VehiclePage>(
      'GET',
      `/registros/vehicle?clientId=${north}&limit=10000&sort=plate&order=desc`,
    );
    expect(all.body).toMatchObject({ page: 1, limit: 10000, total: 2 });
    expect(all.body.vehicles.map((x) => x.plate)).toEqual(['BRA2E19', 'ABC1234']);
    expect(
      (await operator.call('GET', `/registros/vehicle?clientId=${north}&limit=10001`)).status,
    ).toBe(400);
  });

  it('checks ICCIDs and IMEIs, and installs one SIM card per tracker', async () => {
    const { north } = await demoClients(server());
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const badSim = await operator.call<ErrorBody>('POST', '/registros/simcard', {
      clientId: north,
      iccid: '8955100000000000015',
    });
    expect(badSim.body.message).toContain('ICCID inválido');
    const sim = await operator.call<SimCard>('POST', '/registros/simcard', {
      clientId: north,
      iccid: '8955 1000 0000 0000 014',
      phoneNumber: '(91) 98888-7777',
      carrier: 'Vivo',
      apn: 'zap.vivo.com.br',
    });
    expect(sim.status).toBe(201);
    expect(sim.body).toMatchObject({ iccid: '8955100000000000014', phoneNumber: '91988887777' });

    const badImei = await operator.call<ErrorBody>('POST', '/registros/tracker', {
      clientId: north,
      identifier: '490154203237519',
      provider: 'rastro',
    });
    expect(badImei.body.message).toContain('IMEI inválido');
    const tracker = await operator.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: VALID_IMEI,
      provider: 'flespi',
      configMode: 'advanced',
      simCardId: sim.body.id,
    });
    expect(tracker.status).toBe(201);
    expect(tracker.body).toMatchObject({
      provider: 'flespi',
      configMode: 'advanced',
      simCardId: sim.body.id,
      enabled: true,
    });
    const second = await operator.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'outro-1',
      provider: 'rastro',
      simCardId: sim.body.id,
    });
    expect(second.status).toBe(409);
    const removeSim = await operator.call('DELETE', `/registros/simcard/${sim.body.id}`);
    expect(removeSim.status).toBe(403);
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const refused = await manager.call<ErrorBody>('DELETE', `/registros/simcard/${sim.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Este chip está instalado em um rastreador. Retire-o antes de remover.',
    );
  });

  it('links trackers only to records of the same customer', async () => {
    const { north, mother } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const vehicles = await admin.call<VehiclePage>('GET', `/registros/vehicle?clientId=${north}`);
    const vehicleId = present(vehicles.body.vehicles[0], 'a vehicle of Norte').id;
    const cross = await admin.call<ErrorBody>('POST', '/registros/tracker', {
      clientId: mother,
      identifier: 'mae-1',
      provider: 'rastro',
      vehicleId,
    });
    expect(cross.status).toBe(400);
    expect(cross.body.message).toBe('Veículo de outro cliente');
    const unknownType = await admin.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'norte-2',
      provider: 'rastro',
      trackerTypeId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownType.status).toBe(404);
    const linked = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'norte-2',
      provider: 'rastro',
      vehicleId,
    });
    expect(linked.status).toBe(201);
    const blocked = await admin.call('DELETE', `/registros/vehicle/${vehicleId}`);
    expect(blocked.status).toBe(409);
    await admin.call('PATCH', `/registros/tracker/${linked.body.id}`, { vehicleId: null });
    expect((await admin.call('DELETE', `/registros/vehicle/${vehicleId}`)).status).toBe(200);
  });

  it('keeps the tracker type catalogue to administrators', async () => {
    const operator = await as(server(), 'operador@rastro.demo');
    const body = {
      manufacturer: 'Queclink',
      model: 'GV300',
      protocol: 'wialon_ips',
      inputs: ['DIN1', 'ignition'],
    };
    expect((await operator.call('POST', '/registros/tracker-types', body)).status).toBe(403);
    const admin = await as(server(), 'admin@rastro.demo');
    const created = await admin.call('POST', '/registros/tracker-types', body);
    expect(created.status).toBe(201);
    expect(
      (await admin.call('POST', '/registros/tracker-types', { ...body, model: 'gv300' })).status,
    ).toBe(409);
    const list = await operator.call<TrackerTypePage>(
      'GET',
      '/registros/tracker-types?search=queclink',
    );
    expect(list.body.trackerTypes.map((x) => x.model)).toEqual(['GV300']);
    expect(
      (await admin.call<ErrorBody>('POST', '/registros/tracker-types', { ...body, protocol: 'x' }))
        .body.message,
    ).toContain('Protocolo inválido');
  });

  it('lists active drivers by default and searches by name, RFID and CPF', async () => {
    const { south } = await demoClients(server());
    const manager = await as(server(), 'gestor.sul@rastro.demo');
    const ana = await manager.call('POST', '/registros/driver', {
      clientId: south,
      completName: 'Ana Lúcia Souza',
      cpf: '529.982.247-25',
      rfidCode: '00a1b2c3',
      licenseCategory: 'E',
      licenseExpiry: '2028-03-31',
      licenseNumber: '01234567890',
    });
    expect(ana.status).toBe(201);
    expect(ana.body).toMatchObject({
      cpf: '52998224725',
      rfidCode: '00A1B2C3',
      licenseCategory: 'E',
    });
    const bruno = await manager.call('POST', '/registros/driver', {
      clientId: south,
      completName: 'Bruno Lima',
      cpf: '11144477735',
      active: false,
    });
    expect(bruno.status).toBe(201);
    const defaults = await manager.call<DriverPage>('GET', `/registros/driver?clientId=${south}`);
    expect(defaults.body.drivers.map((d) => d.completName)).toEqual(['Ana Lúcia Souza']);
    const inactive = await manager.call<DriverPage>(
      'GET',
      `/registros/driver?clientId=${south}&active=false`,
    );
    expect(inactive.body.drivers.map((d) => d.completName)).toEqual(['Bruno Lima']);
    expect(
      (await manager.call<DriverPage>('GET', '/registros/driver?completName=lucia')).body.total,
    ).toBe(1);
    expect(
      (await manager.call<DriverPage>('GET', '/registros/driver?rfidcode=A1B2')).body.total,
    ).toBe(1);
    expect(
      (await manager.call<DriverPage>('GET', '/registros/driver?cpf=529.982')).body.total,
    ).toBe(1);
    const dup = await manager.call('POST', '/registros/driver', {
      clientId: south,
      completName: 'Cópia',
      cpf: '52998224725',
    });
    expect(dup.status).toBe(409);
    for (const [body, message] of [
      [{ clientId: south, completName: 'X', cpf: '123' }, 'cpf: CPF inválido'],
      [
        { clientId: south, completName: 'X', cpf: '39053344705', licenseExpiry: '31/12/2030' },
        'licenseExpiry: Validade da CNH inválida',
      ],
      [
        { clientId: south, completName: 'X', cpf: '39053344705', licenseCategory: 'Z' },
        'licenseCategory: Categoria da CNH inválida',
      ],
      [
        { clientId: south, completName: 'X', cpf: '39053344705', rfidCode: 'xyz' },
        'rfidCode: Código RFID inválido',
      ],
    ] as const) {
      const res = await manager.call<ErrorBody>('POST', '/registros/driver', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it('groups vehicles of one customer into fleets', async () => {
    const { north, south } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const northVehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Van 3',
      plate: 'VAN3C33',
      type: 'van',
    });
    const southVehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: south,
      name: 'Van 4',
      plate: 'VAN4D44',
      type: 'van',
    });
    const mixed = await admin.call<ErrorBody>('POST', '/tech-integracao/v1/fleets', {
      clientId: north,
      name: 'Mista',
      vehicleIds: [northVehicle.body.id, southVehicle.body.id],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toBe('Há veículos que não existem ou são de outro cliente');
    const fleet = await admin.call<Fleet>('POST', '/tech-integracao/v1/fleets', {
      clientId: north,
      name: 'Entregas',
      vehicleIds: [northVehicle.body.id, northVehicle.body.id],
    });
    expect(fleet.status).toBe(201);
    expect(fleet.body.vehicleIds).toEqual([northVehicle.body.id]);

    // Moved to another customer, it may not keep the vehicles of the one it leaves.
    const moved = await admin.call<ErrorBody>(
      'PATCH',
      `/tech-integracao/v1/fleets/${fleet.body.id}`,
      {
        clientId: south,
      },
    );
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe(FLEET_MOVE_VEHICLES);
    const kept = await admin.call<Fleet>('GET', `/tech-integracao/v1/fleets/${fleet.body.id}`);
    expect([kept.body.clientId, kept.body.vehicleIds]).toEqual([north, [northVehicle.body.id]]);
    // With the new customer's vehicles (or none) it moves.
    const along = await admin.call<Fleet>('PATCH', `/tech-integracao/v1/fleets/${fleet.body.id}`, {
      clientId: south,
      vehicleIds: [southVehicle.body.id],
    });
    expect(along.status).toBe(200);
    expect([along.body.clientId, along.body.vehicleIds]).toEqual([south, [southVehicle.body.id]]);
    // Keeping only vehicles no longer of the customer it leaves (removed ones), it moves too.
    const back = await admin.call<Fleet>('PATCH', `/tech-integracao/v1/fleets/${fleet.body.id}`, {
      clientId: north,
      vehicleIds: [],
    });
    expect([back.status, back.body.vehicleIds]).toEqual([200, []]);
    const gone = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Van 5',
      plate: 'VAN5E55',
      type: 'van',
    });
    await admin.call('PATCH', `/tech-integracao/v1/fleets/${fleet.body.id}`, {
      vehicleIds: [gone.body.id],
    });
    expect((await admin.call('DELETE', `/registros/vehicle/${gone.body.id}`)).status).toBe(200);
    const free = await admin.call<Fleet>('PATCH', `/tech-integracao/v1/fleets/${fleet.body.id}`, {
      clientId: south,
    });
    expect([free.status, free.body.clientId]).toEqual([200, south]);
  });

  it('refuses to remove a customer that still has vehicles', async () => {
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call<ErrorBody>('DELETE', `/registros/client/${north}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(
      /^Este cliente tem \d+ veículos? ativos?\. Remova ou transfira os veículos antes\.$/,
    );
  });
});
