/**
 * DOCUMENT_EXPIRING for drivers, on a real server: the CNH (the driver's licenseExpiry) and a
 * driver's documents warn daysBefore São Paulo days ahead, once per document and expiry (a
 * renewal warns again), through the rules that cover the whole customer only; the alert names
 * the driver in the history, the push (a Web Push endpoint decrypting the payload) and the
 * e-mail (a local SMTP server); another company and a Terceiro (limited to some vehicles) see
 * none of it, in the history, the live stream or their pushes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import type { Alert, AlertPage, Driver, PushAlert } from '../../src/contract';
import {
  type Caller,
  createRule,
  customers,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import type { UserPage } from './api-types';
import { backends, databaseFor, present } from './harness';
import { startFcmStandIn, startWebPushStandIn } from './push-standins';
import { type ReceivedMail, startSmtp } from './smtp';

async function until(check: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A message's text, quoted-printable undone (enough for assertions). */
function textOf(mail: ReceivedMail): string {
  const raw = mail.raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    const hex = raw[i] === '=' ? /^[0-9A-F]{2}/.exec(raw.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(raw[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

const documentAlerts = async (caller: Caller) => {
  const res = await caller.call<AlertPage>(
    'GET',
    '/registros/alerts?type=DOCUMENT_EXPIRING&limit=100&sort=createdAt&order=asc',
  );
  expect(res.status).toBe(200);
  return res.body.items;
};

describe.each(await backends())("drivers' document alerts on %s", (backend) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let fcm: Awaited<ReturnType<typeof startFcmStandIn>>;
  let web: Awaited<ReturnType<typeof startWebPushStandIn>>;
  let server: RunningServer;
  let drop: () => Promise<void>;
  let admin: Caller;
  let norte: Caller;
  let sul: Caller;
  let terceiro: Caller;
  let ids: Awaited<ReturnType<typeof customers>>;
  const phones = { norte: '', sul: '', terceiro: '' };

  beforeAll(async () => {
    smtp = await startSmtp();
    fcm = await startFcmStandIn();
    web = await startWebPushStandIn();
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal({
      ...database.env,
      ...fcm.env,
      SMTP_URL: smtp.url,
      PUSH_INSECURE_ENDPOINTS: 'true',
    });
    admin = await signIn(server.url, 'admin@rastro.demo');
    norte = await signIn(server.url, 'gestor.norte@rastro.demo');
    sul = await signIn(server.url, 'gestor.sul@rastro.demo');
    terceiro = await signIn(server.url, 'terceiro@rastro.demo');
    ids = await customers(admin);
    for (const [who, caller] of [
      ['norte', norte],
      ['sul', sul],
      ['terceiro', terceiro],
    ] as const) {
      const phone = web.subscribe();
      const res = await caller.call('PUT', '/registros/push/subscribe-token', {
        token: JSON.stringify(phone.json),
      });
      expect(res.status).toBe(200);
      phones[who] = phone.id;
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
    await smtp?.close();
    await fcm?.close();
    await web?.close();
  });

  it('warns of the CNH and an exame toxicológico once per expiry, naming the driver', async () => {
    const { north } = ids;
    const engine = server.deps.alerts.engine;
    const driver = await norte.call<Driver>('POST', '/registros/driver', {
      clientId: north,
      completName: 'Joana Prazo',
      cpf: '529.982.247-25',
      licenseCategory: 'E',
      licenseExpiry: '2027-06-30',
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    const exam = await norte.call<{ id: string }>('POST', '/registros/documents', {
      clientId: north,
      driverId: driver.body.id,
      kind: 'toxicological',
      expiry: '2027-07-15',
    });
    expect(exam.status, JSON.stringify(exam.body)).toBe(201);
    await createRule(norte, {
      clientId: north,
      name: 'Documentos da frota',
      type: 'DOCUMENT_EXPIRING',
      params: { daysBefore: 30 },
      emailDelivery: 'rh@frota.com.br',
    });
    // A rule limited to a vehicle speaks of that vehicle's documents only.
    const truck = await vehicleWithTracker(norte, north, 'DOC1A11', 'trk-DOC1A11');
    await createRule(norte, {
      clientId: north,
      name: 'Documentos do caminhão',
      type: 'DOCUMENT_EXPIRING',
      vehicleIds: [truck.vehicleId],
      params: { daysBefore: 60 },
      emailDelivery: 'oficina@frota.com.br',
    });

    // 30 days before the 30th of June is the 31st of May, from 03:00 UTC (midnight in São Paulo).
    expect(await engine.checkUpkeep(new Date('2027-05-31T02:59:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2027-05-31T03:00:00Z'))).toBe(1);
    expect(await engine.checkUpkeep(new Date('2027-06-10T12:00:00Z'))).toBe(0);
    let alerts = await documentAlerts(norte);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'DOCUMENT_EXPIRING',
      vehicleId: null,
      plate: null,
      driverId: driver.body.id,
      driverName: 'Joana Prazo',
      document: { label: 'CNH', expiry: '2027-06-30' },
      ruleName: 'Documentos da frota',
    });
    const cnh = present(alerts[0], 'the CNH alert');

    // The push names the driver, not a plate.
    await until(() => web.received.some((r) => r.id === phones.norte), 'the push');
    const pushed = web.received
      .filter((r) => r.id === phones.norte)
      .map((r) => JSON.parse(r.payload) as PushAlert);
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({
      alertId: cnh.id,
      type: 'DOCUMENT_EXPIRING',
      vehicleId: '',
      driverId: driver.body.id,
      title: 'Documento vencendo — Joana Prazo',
      tag: `driver:${driver.body.id}:DOCUMENT_EXPIRING`,
    });
    expect(pushed[0]?.body).toMatch(
      /^Joana Prazo tem documento vencendo: CNH \(30\/06\/2027\) às \d\d:\d\d$/,
    );

    // So does the e-mail, whose link opens the history on the type (there is no vehicle).
    expect(await server.deps.alerts.mail.flush(new Date(Date.now() + 2 * 60_000))).toBe(1);
    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0]?.to).toEqual(['rh@frota.com.br']);
    const text = textOf(present(smtp.inbox[0], 'the e-mail'));
    expect(text).toContain(
      '- Motorista Joana Prazo: Documento vencendo (CNH, vencimento 30/06/2027)',
    );
    expect(text).toContain(
      'http://rastro.test/fleet-management/alerts/alerts-history?type=DOCUMENT_EXPIRING',
    );
    expect(text).toContain('Veículo ou motorista');
    expect(text).not.toContain('vehicleId=');

    // The exame toxicológico, 30 days before the 15th of July.
    expect(await engine.checkUpkeep(new Date('2027-06-15T02:59:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2027-06-15T03:00:00Z'))).toBe(1);
    alerts = await documentAlerts(norte);
    expect(alerts).toHaveLength(2);
    expect(alerts[1]).toMatchObject({
      vehicleId: null,
      driverName: 'Joana Prazo',
      document: { label: 'Exame toxicológico', expiry: '2027-07-15' },
    });

    // A renewed CNH is silent until 30 days before its new expiry, then warns again.
    const renewed = await norte.call('PATCH', `/registros/driver/${driver.body.id}`, {
      licenseExpiry: '2028-06-30',
    });
    expect(renewed.status).toBe(200);
    expect(await engine.checkUpkeep(new Date('2027-06-30T12:00:00Z'))).toBe(0);
    expect(await engine.checkUpkeep(new Date('2028-05-31T03:00:00Z'))).toBe(1);
    alerts = await documentAlerts(norte);
    expect(alerts).toHaveLength(3);
    // None of them by the rule limited to a vehicle.
    expect(new Set(alerts.map((a) => a.ruleName))).toEqual(new Set(['Documentos da frota']));

    // Another company sees none of it, nor can it read or acknowledge one.
    expect(await documentAlerts(sul)).toEqual([]);
    expect((await sul.call('GET', `/registros/alerts/${cnh.id}`)).status).toBe(404);
    expect((await sul.call('PUT', '/registros/alerts/ack', { alertIds: [cnh.id] })).status).toBe(
      404,
    );
    // A Terceiro (limited to the vehicles linked to them) sees no driver's alert either.
    expect(await documentAlerts(terceiro)).toEqual([]);
    expect((await terceiro.call('GET', `/registros/alerts/${cnh.id}`)).status).toBe(404);
    // The top company's admin does.
    expect((await documentAlerts(admin)).map((a) => a.id)).toContain(cnh.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(web.received.some((r) => r.id === phones.sul || r.id === phones.terceiro)).toBe(false);
  }, 60_000);

  it("keeps a driver's alert off the live stream of a Terceiro, who hears their vehicle's", async () => {
    const { mother, north } = ids;
    const engine = server.deps.alerts.engine;
    const linked = await vehicleWithTracker(norte, north, 'DOC2B22', 'trk-DOC2B22');
    const visitors = await admin.call<UserPage>(
      'GET',
      `/registros/user?clientId=${mother}&search=terceiro`,
    );
    const visitorId = present(
      visitors.body.users.find((u) => u.email === 'terceiro@rastro.demo'),
      'terceiro@rastro.demo',
    ).id;
    const link = await admin.call('POST', `/registros/visitor-role/add-vehicle/${visitorId}`, {
      vehicle: linked.vehicleId,
    });
    expect(link.status).toBeLessThan(300);
    const driver = await norte.call<Driver>('POST', '/registros/driver', {
      clientId: north,
      completName: 'Caio Curso',
      cpf: '111.444.777-35',
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    for (const body of [
      // A day sooner: the driver's alert goes out first, before the one the Terceiro awaits.
      { driverId: driver.body.id, kind: 'course', name: 'MOPP', expiry: '2029-03-30' },
      { vehicleId: linked.vehicleId, kind: 'crlv', expiry: '2029-03-31' },
    ]) {
      const res = await norte.call('POST', '/registros/documents', { clientId: north, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }

    const follow = async (caller: Caller) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/registros/real-time/stream?events=alerts`, {
        headers: { authorization: `Bearer ${caller.token}` },
        signal: controller.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const read = async (pattern: RegExp) => {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
      };
      await read(/event: ready/);
      return {
        /** The alert events once `n` arrived. */
        async events(n: number): Promise<Alert[]> {
          await read(new RegExp(`(event: alert\\ndata: .*\\n\\n[^]*){${n}}`));
          controller.abort();
          return [...text.matchAll(/event: alert\ndata: (.*)\n/g)].map(
            (m) => JSON.parse(m[1] ?? '{}') as Alert,
          );
        },
      };
    };
    const visitorStream = await follow(terceiro);
    const managerStream = await follow(norte);
    // One check, one batch: the MOPP (a driver's) and the CRLV (the linked vehicle's).
    expect(await engine.checkUpkeep(new Date('2029-03-10T12:00:00Z'))).toBe(2);
    const managerHeard = await managerStream.events(2);
    expect(managerHeard.map((a) => a.driverName ?? a.plate).sort()).toEqual([
      'Caio Curso',
      'DOC2B22',
    ]);
    const visitorHeard = await visitorStream.events(1);
    expect(visitorHeard.map((a) => a.plate)).toEqual(['DOC2B22']);
    expect(visitorHeard.some((a) => a.vehicleId === null)).toBe(false);
    // And the Terceiro's history holds only the vehicle's.
    expect((await documentAlerts(terceiro)).map((a) => a.plate)).toEqual(['DOC2B22']);
  }, 60_000);
});
