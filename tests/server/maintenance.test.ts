/**
 * Maintenance through the real API: a plan by km falls due when the tracked odometer crosses
 * it, one by days on the right São Paulo day, a service record starts the cycle again, the
 * MAINTENANCE_DUE alert is raised once per cycle and stage, another company can neither read
 * nor write any of it, and wrong input is refused in pt-BR.
 */
import { describe, expect, it } from 'vitest';
import type { StoredAlert } from '../../server/alerts/notifier';
import { pushMessage } from '../../server/push/message';
import type {
  AlertPage,
  AttachmentList,
  DueList,
  Fleet,
  MaintenancePlan,
  MaintenancePlanPage,
  ServiceRecord,
  ServiceRecordPage,
} from '../../src/contract';
import { as, backends, demoClients, type ErrorBody, present, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { Track } from './tracks';

type Caller = Awaited<ReturnType<typeof as>>;

async function dueOf(caller: Caller, vehicleId: string, planId: string) {
  const res = await caller.call<DueList>('GET', '/registros/maintenance-due');
  expect(res.status).toBe(200);
  return res.body.items.find((i) => i.vehicleId === vehicleId && i.planId === planId);
}

async function maintenanceAlerts(caller: Caller, vehicleId: string) {
  const res = await caller.call<AlertPage>(
    'GET',
    `/registros/alerts?limit=100&vehicleId=${vehicleId}&type=MAINTENANCE_DUE`,
  );
  return res.body.items.filter((a) => a.type === 'MAINTENANCE_DUE' && a.vehicleId === vehicleId);
}

describe.each(await backends())('maintenance on %s', (backend) => {
  const server = useServer(backend);

  it('falls due by km after the track crosses it, and a service starts it again', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const plan = await manager.call<MaintenancePlan>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Troca de óleo',
      vehicleId: v.vehicleId,
      everyKm: 10,
      warnKm: 3,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const rule = await manager.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Manutenção',
      type: 'MAINTENANCE_DUE',
      vehicleIds: [v.vehicleId],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect((await dueOf(manager, v.vehicleId, plan.body.id))?.status).toBe('ok');

    // 6 km: still 4 km to go, outside the 3 km margin.
    const track = new Track('2026-11-20T12:00:00Z').drive(360, 60);
    await ingest(s.deps, v.identifier, track.fixes);
    let due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.status).toBe('ok');
    expect(due?.km?.left).toBeGreaterThan(3.5);
    expect(await s.deps.alerts.engine.checkUpkeep(new Date('2026-11-20T13:00:00Z'))).toBe(0);

    // 8 km: inside the margin, 'vencendo'.
    const second = new Track(new Date(track.now), [
      track.fixes.at(-1)?.latitude ?? 0,
      track.fixes.at(-1)?.longitude ?? 0,
    ]);
    second.drive(120, 60);
    await ingest(s.deps, v.identifier, second.fixes);
    due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.status).toBe('soon');
    expect(await s.deps.alerts.engine.checkUpkeep(new Date('2026-11-20T13:00:00Z'))).toBe(1);
    // Checked again: the same cycle and stage raise nothing more.
    expect(await s.deps.alerts.engine.checkUpkeep(new Date('2026-11-20T14:00:00Z'))).toBe(0);

    // 12 km: past it, 'vencida'.
    const third = new Track(new Date(second.now), [
      second.fixes.at(-1)?.latitude ?? 0,
      second.fixes.at(-1)?.longitude ?? 0,
    ]);
    third.drive(240, 60);
    await ingest(s.deps, v.identifier, third.fixes);
    due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.status).toBe('overdue');
    expect(due?.km?.left).toBeLessThan(0);
    expect(await s.deps.alerts.engine.checkUpkeep(new Date('2026-11-20T15:00:00Z'))).toBe(1);
    const raised = await maintenanceAlerts(manager, v.vehicleId);
    expect(raised).toHaveLength(2);

    // The service, at the km the vehicle has now, starts a new cycle of 10 km.
    const service = await manager.call<ServiceRecord>('POST', '/registros/service-records', {
      clientId: north,
      vehicleId: v.vehicleId,
      date: '2026-11-21',
      items: ['Óleo 15W40', 'Filtro de óleo'],
      cost: 389.9,
      workshop: 'Oficina Central',
      planIds: [plan.body.id],
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    expect(service.body.cost).toBe(389.9);
    expect(service.body.odometerKm).toBeGreaterThan(11.5);
    due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.status).toBe('ok');
    expect(due?.cycle).toBe(service.body.id);
    expect(due?.lastServiceDate).toBe('2026-11-21');
    expect(due?.km?.left).toBeCloseTo(10, 0);
    expect(await s.deps.alerts.engine.checkUpkeep(new Date('2026-11-21T15:00:00Z'))).toBe(0);
  });

  it('counts ignition-on hours where the device sends no hour meter', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const plan = await manager.call<MaintenancePlan>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Revisão por horas',
      vehicleId: v.vehicleId,
      everyHours: 2,
      warnHours: 1,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    expect((await dueOf(manager, v.vehicleId, plan.body.id))?.hours?.now).toBeNull();

    // 119 steps of 30 s with the ignition on (the first fix has none before it): 3,570 s;
    // half an hour parked with it off: nothing; two hours without a word, then the ignition
    // on again: the silence counts 10 minutes at most, then 59 steps of 30 s.
    const track = new Track('2026-11-20T08:00:00Z')
      .drive(3600, 40, 90, { every: 30, ignition: true })
      .park(1800, { every: 60, ignition: false })
      .silence(7200)
      .drive(1800, 40, 90, { every: 30, ignition: true });
    await ingest(s.deps, v.identifier, track.fixes);
    let due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.hours?.now).toBeCloseTo((3570 + 600 + 1770) / 3600, 6);
    expect(due?.status).toBe('soon');

    // Half an hour more with the engine on: past 2 hours.
    const more = new Track(new Date(track.now), [
      track.fixes.at(-1)?.latitude ?? 0,
      track.fixes.at(-1)?.longitude ?? 0,
    ]).drive(1800, 40, 90, { every: 30, ignition: true });
    await ingest(s.deps, v.identifier, more.fixes);
    due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.hours?.now).toBeCloseTo((3570 + 600 + 1770 + 1800) / 3600, 6);
    expect(due?.status).toBe('overdue');
  });

  it('falls due by days on São Paulo days, for every vehicle of a fleet', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const fleet = await manager.call<Fleet>('POST', '/tech-integracao/v1/fleets', {
      clientId: north,
      name: 'Frota revisão',
      vehicleIds: [v.vehicleId],
    });
    expect(fleet.status).toBe(201);
    const plan = await manager.call<MaintenancePlan>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Revisão semestral',
      fleetId: fleet.body.id,
      everyDays: 180,
      warnDays: 15,
      startDate: '2026-06-01',
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const rule = await manager.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Revisões',
      type: 'MAINTENANCE_DUE',
      fleetIds: [fleet.body.id],
    });
    expect(rule.status).toBe(201);
    const engine = s.deps.alerts.engine;
    // Due 2026-11-28 (180 days after 2026-06-01): the margin opens on 2026-11-13, and it is
    // overdue once the 28th is over.
    // 02:59 UTC on the 13th is still the 12th in São Paulo.
    expect(await engine.checkUpkeep(new Date('2026-11-13T02:59:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2026-11-13T03:00:00Z'))).toBe(1);
    expect(await engine.checkUpkeep(new Date('2026-11-29T02:59:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2026-11-29T03:00:00Z'))).toBe(1);
    const alerts = await maintenanceAlerts(manager, v.vehicleId);
    expect(alerts).toHaveLength(2);
    const due = await dueOf(manager, v.vehicleId, plan.body.id);
    expect(due?.days?.due).toBe('2026-11-28');
  });

  it('covers every vehicle of a type of its own customer only', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = async (clientId: string, plate: string, type: string) => {
      const res = await admin.call<{ id: string }>('POST', '/registros/vehicle', {
        clientId,
        name: `Trator ${plate}`,
        plate,
        type,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    const tractors = [
      await vehicle(north, 'TRA1A11', 'tractor'),
      await vehicle(north, 'TRA2B22', 'tractor'),
    ];
    const truck = await vehicle(north, 'CAM3C33', 'truck');
    const theirs = await vehicle(south, 'TRA4D44', 'tractor');
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const plan = await manager.call<MaintenancePlan>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Revisão dos tratores',
      vehicleType: 'tractor',
      everyDays: 90,
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    expect(plan.body.vehicleType).toBe('tractor');
    const admins = await admin.call<DueList>('GET', '/registros/maintenance-due');
    const covered = admins.body.items
      .filter((i) => i.planId === plan.body.id)
      .map((i) => i.vehicleId);
    expect(covered.sort()).toEqual([...tractors].sort());
    expect(covered).not.toContain(truck);
    expect(covered).not.toContain(theirs);

    const two = await manager.call<ErrorBody>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Dois alvos',
      vehicleType: 'tractor',
      vehicleId: truck,
      everyDays: 30,
    });
    expect(two.status).toBe(400);
    expect(two.body.issues?.[0]?.message).toBe(
      'Escolha um veículo, uma frota ou um tipo de veículo (só um)',
    );
    const badType = await manager.call<ErrorBody>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Tipo errado',
      vehicleType: 'spaceship',
      everyDays: 30,
    });
    expect(badType.status).toBe(400);
    expect(JSON.stringify(badType.body)).toContain('Tipo de veículo inválido');
  });

  it('keeps another company out and says what is wrong in pt-BR', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const plan = await manager.call<MaintenancePlan>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Pneus',
      vehicleId: v.vehicleId,
      everyKm: 40_000,
    });
    expect(plan.status).toBe(201);
    const record = await manager.call<ServiceRecord>('POST', '/registros/service-records', {
      clientId: north,
      vehicleId: v.vehicleId,
      date: '2026-11-01',
      odometerKm: 0,
      planIds: [plan.body.id],
    });
    expect(record.status).toBe(201);

    const intruder = await as(s, 'gestor.sul@rastro.demo');
    expect(
      (await intruder.call('GET', `/registros/maintenance-plans/${plan.body.id}`)).status,
    ).toBe(404);
    expect(
      (await intruder.call('PATCH', `/registros/maintenance-plans/${plan.body.id}`, { name: 'X' }))
        .status,
    ).toBe(404);
    expect(
      (await intruder.call('DELETE', `/registros/service-records/${record.body.id}`)).status,
    ).toBe(404);
    const list = await intruder.call<MaintenancePlanPage>(
      'GET',
      '/registros/maintenance-plans?limit=1000',
    );
    expect(list.body.plans.map((p) => p.id)).not.toContain(plan.body.id);
    const due = await intruder.call<DueList>('GET', '/registros/maintenance-due');
    expect(due.body.items.map((i) => i.vehicleId)).not.toContain(v.vehicleId);
    expect(
      (await intruder.call('GET', `/registros/maintenance-due?clientId=${north}`)).status,
    ).toBe(404);
    // Its own plan on the other company's vehicle, or naming the other's plan: refused.
    const onOther = await intruder.call<ErrorBody>('POST', '/registros/maintenance-plans', {
      clientId: south,
      name: 'Alheio',
      vehicleId: v.vehicleId,
      everyDays: 30,
    });
    expect(onOther.status).toBe(400);
    expect(onOther.body.issues?.[0]).toMatchObject({
      path: 'vehicleId',
      message: 'Veículo não encontrado neste cliente',
    });
    const south1 = await vehicleWithTracker(s, south);
    const namingOther = await intruder.call<ErrorBody>('POST', '/registros/service-records', {
      clientId: south,
      vehicleId: south1.vehicleId,
      date: '2026-11-01',
      planIds: [plan.body.id],
    });
    expect(namingOther.status).toBe(400);
    expect(namingOther.body.issues?.[0]?.path).toBe('planIds');

    // pt-BR validation.
    const noInterval = await manager.call<ErrorBody>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Sem intervalo',
      vehicleId: v.vehicleId,
    });
    expect(noInterval.status).toBe(400);
    expect(noInterval.body.issues?.[0]).toMatchObject({
      path: 'everyKm',
      message: 'Informe ao menos um intervalo: km, horas ou dias',
    });
    const both = await manager.call<ErrorBody>('POST', '/registros/maintenance-plans', {
      clientId: north,
      name: 'Dois alvos',
      everyDays: 30,
    });
    expect(both.body.issues?.[0]).toMatchObject({
      path: 'vehicleId',
      message: 'Escolha um veículo, uma frota ou um tipo de veículo (só um)',
    });
    const badRecord = await manager.call<ErrorBody>('POST', '/registros/service-records', {
      clientId: north,
      vehicleId: v.vehicleId,
      date: '2026-02-30',
      cost: -1,
    });
    expect(badRecord.status).toBe(400);
    expect(badRecord.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'date', message: 'Data inválida: use AAAA-MM-DD' }),
        expect.objectContaining({ path: 'cost', message: 'Custo (R$): não pode ser negativo' }),
      ]),
    );
  });
});

describe('the demo maintenance', () => {
  const server = useServer('pglite', () => ({ SEED_DEMO_FLEET: 'true' }));

  it('has a plan overdue and one due soon at Transportes Norte, and its services', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const due = await manager.call<DueList>('GET', `/registros/maintenance-due?clientId=${north}`);
    expect(due.status).toBe(200);
    const byPlan = new Map(due.body.items.map((i) => [i.planName, i.status]));
    expect(byPlan.get('Revisão preventiva')).toBe('overdue');
    expect(byPlan.get('Troca de óleo e filtros')).toBe('soon');
    expect(byPlan.get('Rodízio de pneus')).toBe('ok');
    const records = await manager.call<ServiceRecordPage>(
      'GET',
      `/registros/service-records?clientId=${north}`,
    );
    expect(records.body.total).toBe(2);
    // The review's invoice is attached, as a PDF that opens.
    const review = present(
      records.body.records.find((r) => r.workshop === 'Mecânica Boa Viagem'),
      'the review',
    );
    const files = await manager.call<AttachmentList>(
      'GET',
      `/registros/attachments/service-record/${review.id}`,
    );
    expect(files.body.items.map((f) => [f.name, f.contentType])).toEqual([
      ['nota-fiscal-revisao-100-mil-km.pdf', 'application/pdf'],
    ]);
    const invoice = await s.request(present(files.body.items[0], 'invoice').url, {
      token: manager.accessToken,
    });
    expect(invoice.status).toBe(200);
    const bytes = Buffer.from(await invoice.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('Total: R$ 2.480,00');
    const soonOnly = await manager.call<DueList>(
      'GET',
      `/registros/maintenance-due?clientId=${north}&status=soon,overdue`,
    );
    expect(soonOnly.body.items.map((i) => i.status).sort()).toEqual(['overdue', 'soon']);
  });
});

describe('the maintenance push', () => {
  const alert = (stage: string): StoredAlert => ({
    id: 'a1',
    type: 'MAINTENANCE_DUE',
    vehicleId: 'v1',
    plate: 'KGH1L23',
    vehicleName: 'Caminhão',
    driverId: null,
    driverName: null,
    document: null,
    ruleId: 'r1',
    ruleName: 'Manutenção',
    latitude: null,
    longitude: null,
    speed: null,
    fixTime: null,
    createdAt: '2026-11-28T12:00:00.000Z',
    updatedAt: '2026-11-28T12:00:00.000Z',
    acknowledgedAt: null,
    acknowledgedBy: null,
    late: false,
    clientId: 'c1',
    geofenceId: null,
    geofenceName: null,
    emailDelivery: '',
    details: { stage, planName: 'Troca de óleo' },
  });

  it('says vencendo or vencida by the stage', () => {
    expect(pushMessage(alert('soon'))).toMatchObject({
      title: 'Manutenção vencendo — KGH1L23',
      body: 'KGH1L23 está com a manutenção vencendo: Troca de óleo às 09:00',
    });
    expect(pushMessage(alert('overdue')).title).toBe('Manutenção vencida — KGH1L23');
  });
});
