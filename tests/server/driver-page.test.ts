/**
 * The driver's own page through the real API: a manager makes a personal link with a PIN; the
 * PIN opens a session on the driver's phone; wrong PINs lock the link; a report sent twice is
 * stored once; revoking ends the sessions; another company sees none of it, and a driver's
 * session opens nothing of the manager's API.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  Driver,
  DriverDay,
  DriverLink,
  DriverLinkCreated,
  DriverProblemReport,
  DriverSession,
} from '../../src/contract';
import { reportDay } from '../../src/lib/report-period';
import { as, backends, demoClients, type ErrorBody, type TestServer, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { Track } from './tracks';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
/** A 1×1 PNG, as the page sends a photo. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function driverPage(
  s: TestServer,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) {
  const res = await s.request(`/registros/driver-page${path}`, {
    method,
    ...(token ? { token } : {}),
    ...(body !== undefined ? { json: body } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

const tokenOf = (created: DriverLinkCreated) => created.path.replace('/motorista/', '');

describe.each(await backends())('driver page on %s', (backend) => {
  const server = useServer(backend);

  async function southDriver(s: TestServer, name: string, cpf: string) {
    const { south } = await demoClients(s);
    const manager = await as(s, 'gestor.sul@rastro.demo');
    const driver = await manager.call<Driver>('POST', '/registros/driver', {
      clientId: south,
      completName: name,
      cpf,
    });
    expect(driver.status, JSON.stringify(driver.body)).toBe(201);
    return { manager, driver: driver.body };
  }

  it('opens with the PIN, stores a report once and ends when revoked', async () => {
    const s = server();
    const { manager, driver } = await southDriver(s, 'Motorista do Link', '529.982.247-25');
    const made = await manager.call<DriverLinkCreated>('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '4821',
      expiresAt: inDays(30),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.path).toMatch(/^\/motorista\/[A-Za-z0-9_-]{32}$/);
    expect(made.body.link.state).toBe('active');
    const token = tokenOf(made.body);

    const wrong = await driverPage(s, 'POST', '/session', { token, pin: '1111' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('PIN incorreto');

    const opened = await driverPage(s, 'POST', '/session', { token, pin: '4821' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const session = opened.body as unknown as DriverSession;
    expect(session.driverName).toBe('Motorista do Link');

    const report = {
      id: randomUUID(),
      at: new Date().toISOString(),
      text: 'Pneu furado',
      photo: PNG,
    };
    const first = await driverPage(s, 'POST', '/me/problems', report, session.sessionToken);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // The answer was lost and the phone sends it again: still one report.
    const again = await driverPage(s, 'POST', '/me/problems', report, session.sessionToken);
    expect(again.status).toBe(200);
    // Another driver sending the same id (a reused or guessed one) is refused, and the report
    // and its photo stay as they were.
    const { driver: other, manager: same } = await southDriver(
      s,
      'Outro Motorista',
      '246.813.579-28',
    );
    const otherLink = await same.call<DriverLinkCreated>('POST', '/registros/driver-links', {
      driverId: other.id,
      pin: '9090',
      expiresAt: inDays(1),
    });
    const otherSession = (
      await driverPage(s, 'POST', '/session', { token: tokenOf(otherLink.body), pin: '9090' })
    ).body as unknown as DriverSession;
    const hijack = await driverPage(
      s,
      'POST',
      '/me/problems',
      { ...report, text: 'Outro texto', photo: PNG.replace('iVBOR', 'iVBOQ') },
      otherSession.sessionToken,
    );
    expect(hijack.status).toBe(409);
    expect(hijack.body.message).toBe('Este identificador já foi usado por outro relato');
    const listed = await manager.call<DriverProblemReport[]>('GET', '/registros/driver-reports');
    const mine = listed.body.filter((r) => r.driverId === driver.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ text: 'Pneu furado', hasPhoto: true, resolvedAt: null });
    const photo = await s.request(`/registros/driver-reports/${report.id}/photo`, {
      token: manager.accessToken,
    });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await photo.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    // Another company sees neither the report, its photo nor the driver's links.
    const north = await as(s, 'gestor.norte@rastro.demo');
    const theirs = await north.call<DriverProblemReport[]>('GET', '/registros/driver-reports');
    expect(theirs.body.some((r) => r.id === report.id)).toBe(false);
    const theirPhoto = await s.request(`/registros/driver-reports/${report.id}/photo`, {
      token: north.accessToken,
    });
    expect(theirPhoto.status).toBe(404);
    const theirLinks = await north.call('GET', `/registros/driver-links?driverId=${driver.id}`);
    expect(theirLinks.status).toBe(404);
    const theirNew = await north.call('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '1234',
      expiresAt: inDays(1),
    });
    expect(theirNew.status).toBe(404);

    // A driver's session is not a user's token, and a user's token is not a driver's session.
    const asUser = await s.request('/registros/vehicle', { token: session.sessionToken });
    expect(asUser.status).toBe(401);
    const asDriver = await driverPage(s, 'POST', '/me/problems', report, manager.accessToken);
    expect(asDriver.status).toBe(401);

    const revoked = await manager.call(
      'POST',
      `/registros/driver-links/${made.body.link.id}/revoke`,
    );
    expect(revoked.status).toBe(200);
    const after = await driverPage(
      s,
      'POST',
      '/me/problems',
      { ...report, id: randomUUID() },
      session.sessionToken,
    );
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Sessão encerrada. Abra o link do motorista de novo.');
    const reopen = await driverPage(s, 'POST', '/session', { token, pin: '4821' });
    expect(reopen.status).toBe(410);
    const links = await manager.call<DriverLink[]>(
      'GET',
      `/registros/driver-links?driverId=${driver.id}`,
    );
    expect(links.body.map((l) => l.state)).toEqual(['revoked']);
  });

  it('stores a mark once with its time, and counts down to the mandatory break', async () => {
    const s = server();
    const { south } = await demoClients(s);
    const manager = await as(s, 'gestor.sul@rastro.demo');
    const made = await manager.call<Driver>('POST', '/registros/driver', {
      clientId: south,
      completName: 'Motorista da Estrada',
      cpf: '714.602.380-01',
      rfidCode: 'A1B2C3D4',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const driver = made.body;
    const link = await manager.call<DriverLinkCreated>('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '5150',
      expiresAt: inDays(7),
    });
    const session = (
      await driverPage(s, 'POST', '/session', { token: tokenOf(link.body), pin: '5150' })
    ).body as unknown as DriverSession;

    // Four hours at the wheel of a Sul truck, the tag read all along, until a minute ago.
    const v = await vehicleWithTracker(s, south);
    const start = Date.now() - 4 * 3_600_000 - 60_000;
    const track = new Track(new Date(start)).drive(4 * 3600, 60, 90, {
      every: 60,
      ignition: true,
      driverRfid: 'A1B2C3D4',
    });
    await ingest(s.deps, v.identifier, track.fixes);

    // Marked on the phone ten minutes before the truck left, sent now (and again).
    const mark = {
      id: randomUUID(),
      kind: 'journey_start',
      at: new Date(start - 600_000).toISOString(),
    };
    const first = await driverPage(s, 'POST', '/me/marks', mark, session.sessionToken);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await driverPage(s, 'POST', '/me/marks', mark, session.sessionToken)).status).toBe(200);

    const day = (await driverPage(s, 'GET', '/me/today', undefined, session.sessionToken))
      .body as unknown as DriverDay;
    expect(day.marks).toEqual([{ id: mark.id, kind: 'journey_start', at: mark.at }]);
    expect(day.vehicle?.plate).toBe(v.plate);
    expect(day.periods.some((p) => p.kind === 'driving' && p.source === 'rastreador')).toBe(true);
    // 5 h 30 of continuous driving from the first driving fix (a minute after `start`): about
    // 1 h 30 from now. Today's periods may begin at midnight, the stretch began before it.
    const due = Date.parse(day.breakDueAt ?? '');
    expect(Math.abs(due - (start + 60_000 + 330 * 60_000))).toBeLessThanOrEqual(60_000);
    // The journey in progress, from the mark to the last fix: where the next rest will begin.
    const journey = day.journeys.at(-1);
    expect(journey?.start).toBe(mark.at);
    expect(Math.abs(Date.parse(journey?.end ?? '') - (start + 4 * 3_600_000))).toBeLessThan(
      120_000,
    );
    // The manager reads the mark once, by the driver, at the phone's time.
    const day0 = reportDay(start - 600_000);
    const marks = await manager.call<{ items: { id: string; at: string; source: string }[] }>(
      'GET',
      `/registros/jornada/drivers/${driver.id}/marks?from=${day0}&to=${reportDay(Date.now())}`,
    );
    expect(marks.body.items.filter((m) => m.id === mark.id)).toEqual([
      expect.objectContaining({ at: mark.at, source: 'motorista' }),
    ]);
    // A mark from the future is refused and stores nothing.
    const future = await driverPage(
      s,
      'POST',
      '/me/marks',
      { id: randomUUID(), kind: 'meal_start', at: inDays(1) },
      session.sessionToken,
    );
    expect(future.status).toBe(400);
  });

  it('locks the link at the fifth wrong PIN in a row, even for the right one', async () => {
    const s = server();
    const { manager, driver } = await southDriver(s, 'Motorista Tentativas', '111.444.777-35');
    const made = await manager.call<DriverLinkCreated>('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '902215',
      expiresAt: inDays(2),
    });
    const token = tokenOf(made.body);
    const statuses: number[] = [];
    for (const pin of ['0000', '0001', '0002', '0003', '0004'])
      statuses.push((await driverPage(s, 'POST', '/session', { token, pin })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await driverPage(s, 'POST', '/session', { token, pin: '902215' });
    expect(right.status).toBe(429);
    expect(right.body.message).toBe('Muitas tentativas com PIN errado. Tente de novo mais tarde.');
    const links = await manager.call<DriverLink[]>(
      'GET',
      `/registros/driver-links?driverId=${driver.id}`,
    );
    expect(links.body[0]?.state).toBe('locked');
  });

  it('refuses bad input in pt-BR and changes nothing', async () => {
    const s = server();
    const { manager, driver } = await southDriver(s, 'Motorista Entradas', '390.533.447-05');
    const bad = async (body: object, message: string) => {
      const res = await manager.call<ErrorBody>('POST', '/registros/driver-links', {
        driverId: driver.id,
        pin: '1234',
        expiresAt: inDays(1),
        ...body,
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    };
    await bad({ pin: '12a4' }, 'O PIN tem de 4 a 6 dígitos');
    await bad({ pin: '123' }, 'O PIN tem de 4 a 6 dígitos');
    await bad({ pin: '1234567' }, 'O PIN tem de 4 a 6 dígitos');
    await bad({ expiresAt: inDays(-1) }, 'A validade do link deve ser futura');
    await bad({ expiresAt: inDays(400) }, 'A validade do link deve ser futura');
    const links = await manager.call<DriverLink[]>(
      'GET',
      `/registros/driver-links?driverId=${driver.id}`,
    );
    expect(links.body).toEqual([]);

    // An operator does not manage people: no links.
    const operator = await as(s, 'operador.sul@rastro.demo');
    const refused = await operator.call('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '1234',
      expiresAt: inDays(1),
    });
    expect(refused.status).toBe(403);

    const made = await manager.call<DriverLinkCreated>('POST', '/registros/driver-links', {
      driverId: driver.id,
      pin: '1234',
      expiresAt: inDays(1),
    });
    const session = (
      await driverPage(s, 'POST', '/session', { token: tokenOf(made.body), pin: '1234' })
    ).body as unknown as DriverSession;
    const report = (body: object) =>
      driverPage(
        s,
        'POST',
        '/me/problems',
        { id: randomUUID(), at: new Date().toISOString(), text: 'Freio fazendo barulho', ...body },
        session.sessionToken,
      );
    expect((await report({ at: inDays(1) })).body.message).toContain('Horário do relato inválido');
    expect((await report({ at: inDays(-8) })).body.message).toContain('Horário do relato inválido');
    expect((await report({ text: ' ' })).body.message).toContain('Descreva o problema');
    expect((await report({ photo: 'data:text/html;base64,PHNjcmlwdD4=' })).body.message).toContain(
      'Foto inválida: envie JPEG, PNG ou WebP de até 600 KB',
    );
    const listed = await manager.call<DriverProblemReport[]>('GET', '/registros/driver-reports');
    expect(listed.body.filter((r) => r.driverId === driver.id)).toEqual([]);
  });
});
