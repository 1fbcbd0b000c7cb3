/**
 * Documents through the real API: DOCUMENT_EXPIRING on the right São Paulo day, once per
 * document and expiry (a renewal warns again); the list of what expires in 30/60/90 days with
 * the drivers' CNH; another company can neither read nor write them; pt-BR validation.
 */
import { describe, expect, it } from 'vitest';
import type {
  AlertPage,
  AlertRule,
  DocumentPage,
  DocumentRecord,
  Driver,
  ExpiringList,
} from '../../src/contract';
import { reportDay } from '../../src/lib/report-period';
import { as, backends, demoClients, type ErrorBody, useServer } from './harness';
import { vehicleWithTracker } from './report-fixtures';

const inDays = (n: number) => reportDay(Date.now() + n * 86_400_000);

describe.each(await backends())('documents on %s', (backend) => {
  const server = useServer(backend);

  it('warns daysBefore São Paulo days ahead, once per expiry', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const crlv = await manager.call<DocumentRecord>('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'crlv',
      number: '0123456789',
      expiry: '2026-12-31',
    });
    expect(crlv.status, JSON.stringify(crlv.body)).toBe(201);
    const rule = await manager.call<AlertRule>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Documentos',
      type: 'DOCUMENT_EXPIRING',
      vehicleIds: [v.vehicleId],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect(rule.body.params).toEqual({ daysBefore: 30 });
    const engine = s.deps.alerts.engine;
    // 30 days before the 31st of December is the 1st, from 03:00 UTC (midnight in São Paulo).
    expect(await engine.checkUpkeep(new Date('2026-12-01T02:59:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2026-12-01T03:00:00Z'))).toBe(1);
    expect(await engine.checkUpkeep(new Date('2026-12-20T12:00:00Z'))).toBe(0);
    const alerts = await manager.call<AlertPage>(
      'GET',
      `/registros/alerts?vehicleId=${v.vehicleId}&type=DOCUMENT_EXPIRING`,
    );
    expect(alerts.body.items).toHaveLength(1);
    expect(alerts.body.items[0]?.plate).toBe(v.plate);

    // Renewed: silent until 30 days before the new expiry.
    const renewed = await manager.call('PATCH', `/registros/documents/${crlv.body.id}`, {
      expiry: '2027-12-31',
    });
    expect(renewed.status).toBe(200);
    expect(await engine.checkUpkeep(new Date('2026-12-21T12:00:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2027-12-01T03:00:00Z'))).toBe(1);

    // A rule of 5 days says nothing 6 days before.
    await manager.call('PATCH', `/registros/alert-rules/${rule.body.id}`, {
      params: { daysBefore: 5 },
    });
    await manager.call('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'ipva',
      expiry: '2027-03-31',
    });
    expect(await engine.checkUpkeep(new Date('2027-03-25T12:00:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2027-03-26T12:00:00Z'))).toBe(1);
  });

  it('lists what expires in 30, 60 and 90 days, drivers’ CNH included', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const driver = await manager.call<Driver>('POST', '/registros/driver', {
      clientId: north,
      completName: 'Motorista Vencendo',
      cpf: '529.982.247-25',
      licenseCategory: 'E',
      licenseExpiry: inDays(20),
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    const create = async (body: object) => {
      const res = await manager.call<DocumentRecord>('POST', '/registros/documents', {
        clientId: north,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    const expired = await create({ vehicleId: v.vehicleId, kind: 'insurance', expiry: inDays(-3) });
    const soon = await create({ vehicleId: v.vehicleId, kind: 'tachograph', expiry: inDays(10) });
    const mid = await create({
      driverId: driver.body.id,
      kind: 'toxicological',
      expiry: inDays(45),
    });
    const late = await create({
      driverId: driver.body.id,
      kind: 'course',
      name: 'MOPP',
      expiry: inDays(80),
    });
    const far = await create({ vehicleId: v.vehicleId, kind: 'rntrc', expiry: inDays(200) });
    const ids = async (days: number) => {
      const res = await manager.call<ExpiringList>(
        'GET',
        `/registros/documents-expiring?clientId=${north}&days=${days}`,
      );
      expect(res.status).toBe(200);
      return res.body.items;
    };
    const in30 = await ids(30);
    const mine = (items: ExpiringList['items']) =>
      items
        .filter((i) => i.vehicleId === v.vehicleId || i.driverId === driver.body.id)
        .map((i) => i.id);
    expect(mine(in30)).toEqual([expired, soon, `cnh:${driver.body.id}`]);
    expect(in30.find((i) => i.id === expired)).toMatchObject({
      label: 'Seguro',
      daysLeft: -3,
      plate: v.plate,
    });
    expect(in30.find((i) => i.id === `cnh:${driver.body.id}`)).toMatchObject({
      label: 'CNH',
      daysLeft: 20,
      driverName: 'Motorista Vencendo',
    });
    expect(mine(await ids(60))).toEqual([expired, soon, `cnh:${driver.body.id}`, mid]);
    const in90 = await ids(90);
    expect(mine(in90)).toEqual([expired, soon, `cnh:${driver.body.id}`, mid, late]);
    expect(in90.find((i) => i.id === late)?.label).toBe('MOPP');
    expect(mine(in90)).not.toContain(far);
  });

  it('keeps another company out and says what is wrong in pt-BR', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const v = await vehicleWithTracker(s, north);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const doc = await manager.call<DocumentRecord>('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'crlv',
      expiry: inDays(5),
    });
    expect(doc.status).toBe(201);
    const intruder = await as(s, 'gestor.sul@rastro.demo');
    expect((await intruder.call('GET', `/registros/documents/${doc.body.id}`)).status).toBe(404);
    expect(
      (await intruder.call('PATCH', `/registros/documents/${doc.body.id}`, { number: 'X' })).status,
    ).toBe(404);
    expect((await intruder.call('DELETE', `/registros/documents/${doc.body.id}`)).status).toBe(404);
    const list = await intruder.call<DocumentPage>('GET', '/registros/documents?limit=1000');
    expect(list.body.documents.map((d) => d.id)).not.toContain(doc.body.id);
    const expiring = await intruder.call<ExpiringList>('GET', '/registros/documents-expiring');
    expect(expiring.body.items.map((i) => i.id)).not.toContain(doc.body.id);
    expect(
      (await intruder.call('GET', `/registros/documents-expiring?clientId=${north}`)).status,
    ).toBe(404);
    const onOther = await intruder.call<ErrorBody>('POST', '/registros/documents', {
      clientId: south,
      vehicleId: v.vehicleId,
      kind: 'ipva',
      expiry: inDays(5),
    });
    expect(onOther.status).toBe(400);
    expect(onOther.body.issues?.[0]).toMatchObject({
      path: 'vehicleId',
      message: 'Veículo não encontrado neste cliente',
    });

    const wrongKind = await manager.call<ErrorBody>('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'toxicological',
      expiry: inDays(5),
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.issues?.[0]).toMatchObject({
      path: 'kind',
      message: 'Este tipo de documento não é deste dono',
    });
    const unnamed = await manager.call<ErrorBody>('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'other',
      expiry: '2026-13-01',
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'expiry', message: 'Data inválida: use AAAA-MM-DD' }),
      ]),
    );
    const noName = await manager.call<ErrorBody>('POST', '/registros/documents', {
      clientId: north,
      vehicleId: v.vehicleId,
      kind: 'other',
      expiry: inDays(5),
    });
    expect(noName.body.issues?.[0]).toMatchObject({
      path: 'name',
      message: 'Informe o nome do curso ou do documento',
    });
    const badDays = await manager.call<ErrorBody>('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Documentos',
      type: 'DOCUMENT_EXPIRING',
      params: { daysBefore: 0 },
    });
    expect(badDays.status).toBe(400);
    expect(badDays.body.issues?.[0]?.message).toBe(
      'Avisar com quantos dias de antecedência: de 1 a 365',
    );
  });
});

describe('the demo documents', () => {
  const server = useServer('pglite', () => ({ SEED_DEMO_FLEET: 'true' }));

  it('has an expired one and some within 30 days at Transportes Norte', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const res = await manager.call<ExpiringList>(
      'GET',
      `/registros/documents-expiring?clientId=${north}&days=30`,
    );
    expect(res.status).toBe(200);
    const labels = res.body.items.map((i) => [i.label, Math.sign(i.daysLeft)]);
    expect(labels).toEqual(
      expect.arrayContaining([
        ['Seguro', -1],
        ['Licenciamento (CRLV)', 1],
        ['Aferição do tacógrafo', 1],
        ['CNH', -1],
        ['CNH', 1],
      ]),
    );
    const all = await manager.call<DocumentPage>(
      'GET',
      `/registros/documents?clientId=${north}&limit=100`,
    );
    expect(all.body.total).toBe(7);
  });
});
