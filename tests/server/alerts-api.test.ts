/**
 * The geofence, alert-rule and alert calls of SPEC §7: wire shapes exactly as promised,
 * pt-BR validation (geometry, params per type, the e-mail list rule), sorting and paging,
 * acknowledging one, several or all within the caller's tenancy, and alert events on the
 * live stream scoped like locations (a Terceiro hears only their linked vehicles).
 */
import { describe, expect, it } from 'vitest';
import type {
  Alert,
  AlertPage,
  AlertRule,
  AlertRulePage,
  Association,
  Geofence,
  GeofencePage,
  Vehicle,
} from '../../src/contract';
import type { UserPage } from './api-types';
import {
  as,
  backends,
  demoClients,
  type ErrorBody,
  present,
  type TestServer,
  useServer,
} from './harness';

const RING = [
  [-34.9, -8.06],
  [-34.88, -8.06],
  [-34.88, -8.04],
  [-34.9, -8.04],
  [-34.9, -8.06],
];

async function vehicle(s: TestServer, clientId: string, plate: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const v = await admin.call<Vehicle>('POST', '/registros/vehicle', {
    clientId,
    name: `Veículo ${plate}`,
    plate,
    type: 'car',
  });
  const t = await admin.call('POST', '/registros/tracker', {
    clientId,
    identifier: `api-${plate}`,
    provider: 'rastro',
    vehicleId: v.body.id,
  });
  expect(t.status).toBe(201);
  return { id: v.body.id, identifier: `api-${plate}` };
}

/** Ignition fixes through the real pipeline: off, then on (raises IGNITION_ON when ruled). */
async function toggle(s: TestServer, identifier: string, startSecondsAgo = 120) {
  const t0 = Date.now() - startSecondsAgo * 1000;
  const fix = (dt: number, ignition: boolean) => ({
    fixTime: new Date(t0 + dt * 1000),
    latitude: -8.05,
    longitude: -34.89,
    ignition,
    attributes: {},
  });
  await s.deps.pipeline.accept(identifier, [fix(0, false)], 'osmand');
  await s.deps.pipeline.accept(identifier, [fix(10, true)], 'osmand');
}

describe.each(await backends())('geofence, alert-rule and alert calls on %s', (backend) => {
  const server = useServer(backend);

  it('creates geofences with the promised shape and default colour', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const polygon = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId: north,
      name: 'Pátio Norte',
      geometry: { type: 'Polygon', coordinates: [RING] },
    });
    expect(polygon.status).toBe(201);
    expect(Object.keys(polygon.body).sort()).toEqual(
      [
        'clientId',
        'color',
        'createdAt',
        'description',
        'geometry',
        'id',
        'name',
        'speedLimit',
        'updatedAt',
      ].sort(),
    );
    expect(polygon.body).toMatchObject({
      color: '#FF0000',
      description: null,
      speedLimit: null,
      geometry: { type: 'Polygon', coordinates: [RING] },
    });
    const circle = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId: north,
      name: 'Cliente A',
      color: '#00aa00',
      speedLimit: 30,
      geometry: { type: 'Circle', center: [-34.89, -8.05], radius: 150 },
    });
    expect(circle.body).toMatchObject({
      color: '#00AA00',
      speedLimit: 30,
      geometry: { type: 'Circle', center: [-34.89, -8.05], radius: 150 },
    });
    const patched = await admin.call('PATCH', `/registros/geofence/${circle.body.id}`, {
      name: 'Cliente A (doca)',
      speedLimit: null,
    });
    expect(patched.body).toMatchObject({ name: 'Cliente A (doca)', speedLimit: null });
    const list = await admin.call<GeofencePage>(
      'GET',
      `/registros/geofence?clientId=${north}&sort=name&limit=50`,
    );
    expect(list.body).toMatchObject({ page: 1, limit: 50 });
    expect(list.body.items.map((g) => g.name)).toEqual(['Cliente A (doca)', 'Pátio Norte']);
    // Mirror sync: what changed, and every live id so that removed ones are dropped.
    await admin.call('DELETE', `/registros/geofence/${polygon.body.id}`);
    const sync = await admin.call<GeofencePage>(
      'GET',
      `/registros/geofence?clientId=${north}&updatedSince=${encodeURIComponent(new Date(0).toISOString())}&limit=1000`,
    );
    expect(sync.body.ids).toEqual([circle.body.id]);
    expect(sync.body.items.map((g) => g.id)).toEqual([circle.body.id]);
  });

  it('refuses bad geometries with pt-BR messages and stores nothing', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const attempt = async (geometry: unknown) => {
      const res = await admin.call<ErrorBody>('POST', '/registros/geofence', {
        clientId: north,
        name: 'X',
        geometry,
      });
      expect(res.status).toBe(400);
      return res.body.message;
    };
    expect(await attempt({ type: 'Polygon', coordinates: [RING.slice(0, 3)] })).toContain(
      'pelo menos 4 posições',
    );
    expect(await attempt({ type: 'Polygon', coordinates: [RING.slice(0, 4)] })).toContain(
      'fechado',
    );
    const bowtie = [
      [-34.9, -8.06],
      [-34.88, -8.04],
      [-34.88, -8.06],
      [-34.9, -8.04],
      [-34.9, -8.06],
    ];
    expect(await attempt({ type: 'Polygon', coordinates: [bowtie] })).toContain(
      'cruzar a si mesmo',
    );
    expect(
      await attempt({
        type: 'Polygon',
        coordinates: [
          [
            [-200, -8],
            [-34, -8],
            [-34, -7],
            [-200, -8],
          ],
        ],
      }),
    ).toContain('Longitude fora do intervalo');
    expect(await attempt({ type: 'Circle', center: [-34.9, -8.06], radius: 5 })).toContain(
      'pelo menos 10 m',
    );
    expect(await attempt({ type: 'Circle', center: [-34.9, -8.06], radius: 100_001 })).toContain(
      'no máximo 100 km',
    );
    expect(await attempt({ type: 'Circle', center: [-8.06, -95], radius: 100 })).toContain(
      'Latitude fora do intervalo',
    );
    const list = await admin.call<GeofencePage>(
      'GET',
      `/registros/geofence?clientId=${north}&search=X`,
    );
    expect(list.body.total).toBe(0);
  });

  it('associates vehicles with rule kinds and intervals, and removes an association', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const v = await vehicle(s, north, 'ASC1A11');
    const other = await vehicle(s, south, 'ASC2B22');
    const fence = await admin.call<Geofence>('POST', '/registros/geofence', {
      clientId: north,
      name: 'Garagem',
      geometry: { type: 'Circle', center: [-34.89, -8.05], radius: 300 },
    });
    const res = await admin.call('POST', '/registros/geofence/vehicle-association', {
      geofenceId: fence.body.id,
      vehicleAssociations: [
        {
          vehicleId: v.id,
          restrictionType: 'INSIDE_INTERVAL',
          startTime: '22:00',
          endTime: '06:00',
          weekdays: [5, 1],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual([
      expect.objectContaining({
        geofenceId: fence.body.id,
        vehicleId: v.id,
        restrictionType: 'INSIDE_INTERVAL',
        startTime: '22:00',
        endTime: '06:00',
        weekdays: [1, 5],
      }),
    ]);
    // The same vehicle again: its rule is replaced, not doubled.
    const again = await admin.call<Association[]>(
      'POST',
      '/registros/geofence/vehicle-association',
      {
        geofenceId: fence.body.id,
        vehicleAssociations: [
          { vehicleId: v.id, restrictionType: 'ALWAYS_INSIDE', startTime: '10:00' },
        ],
      },
    );
    expect(again.body).toEqual([
      expect.objectContaining({
        restrictionType: 'ALWAYS_INSIDE',
        startTime: null,
        weekdays: [0, 1, 2, 3, 4, 5, 6],
      }),
    ]);
    const missingTime = await admin.call<ErrorBody>(
      'POST',
      '/registros/geofence/vehicle-association',
      {
        geofenceId: fence.body.id,
        vehicleAssociations: [
          { vehicleId: v.id, restrictionType: 'OUTSIDE_INTERVAL', endTime: '06:00' },
        ],
      },
    );
    expect(missingTime.status).toBe(400);
    expect(missingTime.body.message).toContain('início do intervalo');
    // A vehicle of a sibling company cannot join a Norte geofence.
    const foreign = await admin.call('POST', '/registros/geofence/vehicle-association', {
      geofenceId: fence.body.id,
      vehicleAssociations: [{ vehicleId: other.id, restrictionType: 'ALWAYS_INSIDE' }],
    });
    expect(foreign.status).toBe(404);
    const removed = await admin.call(
      'DELETE',
      `/registros/geofence/vehicle-association/${present(again.body[0], 'association').id}`,
    );
    expect(removed.status).toBe(200);
    const left = await admin.call(
      'GET',
      `/registros/geofence/vehicle-association?geofenceId=${fence.body.id}`,
    );
    expect(left.body).toEqual([]);
  });

  it('validates alert rules per type, keeps the promised shape and sorts', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const created = await admin.call<AlertRule>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Velocidade',
      type: 'OVERSPEED',
      params: { speedLimit: 80 },
      schedule: { weekdays: [1, 2, 3, 4, 5], startTime: '22:00', endTime: '06:00' },
      emailDelivery: ' central@frota.com.br ,gerente@frota.com.br',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(
      [
        'active',
        'clientId',
        'emailDelivery',
        'fleetIds',
        'id',
        'name',
        'params',
        'schedule',
        'type',
        'vehicleIds',
      ].sort(),
    );
    expect(created.body).toMatchObject({
      params: { speedLimit: 80, tolerancePercent: 0, minDurationSeconds: 0 },
      emailDelivery: 'central@frota.com.br, gerente@frota.com.br',
      vehicleIds: [],
      active: true,
    });
    const badParams = await admin.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Sem limite',
      type: 'OVERSPEED',
      params: {},
    });
    expect(badParams.status).toBe(400);
    expect(badParams.body.issues?.[0]?.path).toBe('params.speedLimit');
    // No type says it is missing; a type that does not exist, that it is wrong.
    const noType = await admin.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Sem tipo',
    });
    expect(noType.status).toBe(400);
    expect(noType.body.issues?.[0]).toMatchObject({ path: 'type', message: 'Campo obrigatório' });
    const badType = await admin.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Tipo errado',
      type: 'TELEPORT',
    });
    expect(badType.body.issues?.[0]).toMatchObject({
      path: 'type',
      message: 'Tipo de alerta inválido',
    });
    const badMails = await admin.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'E-mails',
      type: 'IGNITION_ON',
      emailDelivery: 'central@frota.com.br, joao@, maria',
    });
    expect(badMails.status).toBe(400);
    expect(badMails.body.message).toContain('E-mail inválido: joao@, maria');
    const onlyCommas = await admin.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'E-mails',
      type: 'IGNITION_ON',
      emailDelivery: ' , ,',
    });
    expect(onlyCommas.status).toBe(400);
    // Changing the type checks the params anew; '' turns e-mail off.
    const toBattery = await admin.call<ErrorBody>(
      'PATCH',
      `/registros/alert-rules/${created.body.id}`,
      {
        type: 'LOW_BATTERY',
      },
    );
    expect(toBattery.status).toBe(400);
    expect(toBattery.body.issues?.[0]?.path).toBe('params.threshold');
    const changed = await admin.call('PATCH', `/registros/alert-rules/${created.body.id}`, {
      type: 'LOW_BATTERY',
      params: { threshold: 20 },
      emailDelivery: '',
    });
    expect(changed.body).toMatchObject({
      type: 'LOW_BATTERY',
      params: { threshold: 20 },
      emailDelivery: '',
    });
    await admin.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Alfa',
      type: 'DIN1',
    });
    const byName = await admin.call<AlertRulePage>(
      'GET',
      `/registros/alert-rules?clientId=${north}&sort=name&order=desc`,
    );
    const names = byName.body.items.map((r) => r.name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, 'pt-BR')));
    const byUpdate = await admin.call<AlertRulePage>(
      'GET',
      `/registros/alert-rules?clientId=${north}&sort=updatedAt&order=desc`,
    );
    expect(byUpdate.body.items[0]?.name).toBe('Alfa');
    const byCreation = await admin.call<AlertRulePage>(
      'GET',
      `/registros/alert-rules?clientId=${north}&sort=createdAt`,
    );
    expect(byCreation.body.items[0]?.id).toBe(created.body.id);
  });

  it('refuses params sent as a list, on create and update, and changes nothing', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const rule = await admin.call<AlertRule>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Sem alimentação',
      type: 'DEVICE_POWER_DISCONNECTED',
      params: { threshold: 9 },
    });
    expect([rule.status, rule.body.params]).toEqual([201, { threshold: 9 }]);
    const read = async () =>
      (await admin.call<AlertRule>('GET', `/registros/alert-rules/${rule.body.id}`)).body;
    const before = await read();
    const total = async () =>
      (await admin.call<AlertRulePage>('GET', `/registros/alert-rules?clientId=${north}&limit=100`))
        .body.total;
    const count = await total();
    // valibot alone took [] for {}: the threshold went back to its default (6 V).
    for (const params of [[], [12]]) {
      const patched = await admin.call<ErrorBody>(
        'PATCH',
        `/registros/alert-rules/${rule.body.id}`,
        { name: 'Renomeada', params },
      );
      expect([patched.status, patched.body.message]).toEqual([
        400,
        'Requisição inválida: params: Tipo inválido: esperado objeto',
      ]);
    }
    const created = await admin.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Ignição',
      type: 'IGNITION_ON',
      params: [],
    });
    expect(created.status).toBe(400);
    expect(created.body.issues).toEqual([
      { path: 'params', message: 'Tipo inválido: esperado objeto' },
    ]);
    expect(await read()).toEqual(before);
    expect(await total()).toBe(count);
  });

  it('lists, filters and pages alerts; acknowledges one, several or all within the tenancy', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const norte = [
      await vehicle(s, north, 'ACK1A11'),
      await vehicle(s, north, 'ACK2B22'),
      await vehicle(s, north, 'ACK3C33'),
    ];
    const sul = await vehicle(s, south, 'ACK4D44');
    for (const [clientId, ids] of [
      [north, norte.map((v) => v.id)],
      [south, [sul.id]],
    ] as const)
      await admin.call('POST', '/registros/alert-rules', {
        clientId,
        name: 'Ligou',
        type: 'IGNITION_ON',
        vehicleIds: ids,
      });
    for (const v of [...norte, sul]) await toggle(s, v.identifier);

    const manager = await as(s, 'gestor.norte@rastro.demo');
    const page = await manager.call<AlertPage>(
      'GET',
      '/registros/alerts?limit=2&page=1&acknowledged=false',
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(Object.keys(present(page.body.items[0], 'alert')).sort()).toEqual(
      [
        'acknowledgedAt',
        'acknowledgedBy',
        'createdAt',
        'document',
        'driverId',
        'driverName',
        'fixTime',
        'id',
        'late',
        'latitude',
        'longitude',
        'plate',
        'ruleId',
        'ruleName',
        'speed',
        'type',
        'updatedAt',
        'vehicleId',
        'vehicleName',
      ].sort(),
    );
    const byVehicle = await manager.call<AlertPage>(
      'GET',
      `/registros/alerts?vehicleId=${norte[0]?.id}&type=IGNITION_ON`,
    );
    expect(byVehicle.body.items).toHaveLength(1);
    expect(byVehicle.body.items[0]).toMatchObject({
      plate: 'ACK1A11',
      vehicleName: 'Veículo ACK1A11',
      ruleName: 'Ligou',
    });
    const future = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
    expect(
      (await manager.call<AlertPage>('GET', `/registros/alerts?beginAt=${future}`)).body.total,
    ).toBe(0);
    // A period that ends before it begins is refused, as the reports refuse it.
    const past = encodeURIComponent(new Date(Date.now() - 3600_000).toISOString());
    const reversed = await manager.call<ErrorBody>(
      'GET',
      `/registros/alerts?beginAt=${future}&endAt=${past}`,
    );
    expect(reversed.status).toBe(400);
    // The reports' own words for it.
    expect(reversed.body.message).toBe('A data final deve ser posterior à data inicial');

    const southAdmin = await as(s, 'gestor.sul@rastro.demo');
    const sulAlert = present(
      (await southAdmin.call<AlertPage>('GET', '/registros/alerts')).body.items[0],
      "Sul's alert",
    );
    // Norte cannot acknowledge Sul's alert, nor read it; the whole call changes nothing.
    const mine = present(page.body.items[0], 'alert').id;
    const mixed = await manager.call('PUT', '/registros/alerts/ack', {
      alertIds: [mine, sulAlert.id],
    });
    expect(mixed.status).toBe(404);
    expect((await manager.call('GET', `/registros/alerts/${sulAlert.id}`)).status).toBe(404);
    const one = await manager.call('PUT', '/registros/alerts/ack', { alertIds: [mine] });
    expect(one.body).toEqual({ count: 1 });
    const read = await manager.call<Alert>('GET', `/registros/alerts/${mine}`);
    expect(read.body).toMatchObject({ acknowledgedBy: 'Núbia Gestora Norte' });
    expect(read.body.acknowledgedAt).not.toBeNull();
    // A client user reads but cannot acknowledge.
    const clientUser = await as(s, 'cliente@rastro.demo');
    expect((await clientUser.call('PUT', '/registros/alerts/ack-all')).status).toBe(403);
    const all = await manager.call('PUT', '/registros/alerts/ack-all');
    expect(all.body).toEqual({ count: 2 });
    expect(
      (await manager.call<AlertPage>('GET', '/registros/alerts?acknowledged=false')).body.total,
    ).toBe(0);
    const sulNow = await southAdmin.call<Alert>('GET', `/registros/alerts/${sulAlert.id}`);
    expect(sulNow.body.acknowledgedAt).toBeNull();
  });

  it('sends alert events on the live stream, a Terceiro only for linked vehicles', async () => {
    const s = server();
    const { mother } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const linked = await vehicle(s, mother, 'SSE1A11');
    const unlinked = await vehicle(s, mother, 'SSE2B22');
    await admin.call('POST', '/registros/alert-rules', {
      clientId: mother,
      name: 'Ligou',
      type: 'IGNITION_ON',
      vehicleIds: [linked.id, unlinked.id],
    });
    const visitorUser = await admin.call<UserPage>(
      'GET',
      `/registros/user?clientId=${mother}&search=terceiro`,
    );
    const visitorId = present(
      visitorUser.body.users.find((u) => u.email === 'terceiro@rastro.demo'),
      'terceiro@rastro.demo',
    ).id;
    await admin.call('POST', `/registros/visitor-role/add-vehicle/${visitorId}`, {
      vehicle: linked.id,
    });
    const visitor = await as(s, 'terceiro@rastro.demo');
    const controller = new AbortController();
    const res = await s.request('/registros/real-time/stream?events=alerts', {
      token: visitor.accessToken,
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/event: ready/);
    await toggle(s, unlinked.identifier);
    await toggle(s, linked.identifier);
    await until(/event: alert\ndata: .*\n\n/);
    controller.abort();
    const events = [...text.matchAll(/event: alert\ndata: (.*)\n/g)].map((m) =>
      JSON.parse(m[1] ?? '{}'),
    );
    expect(events.map((e) => e.plate)).toEqual(['SSE1A11']);
    expect(events[0]).toMatchObject({ type: 'IGNITION_ON', vehicleId: linked.id, late: false });
    // And the Terceiro's history holds only that vehicle's alert.
    const history = await visitor.call<AlertPage>('GET', '/registros/alerts');
    expect(history.body.items.map((a) => a.plate)).toEqual(['SSE1A11']);
  });
});
