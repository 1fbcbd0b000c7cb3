/**
 * Alert e-mails through a real local SMTP server: one message per rule per minute with every
 * alert of that minute (plate, type, time in São Paulo, a map link and the history link), sent
 * only once the minute is over, never twice, and not for rules without an e-mail list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import {
  type Caller,
  createRule,
  customers,
  flespi,
  signIn,
  startReal,
  vehicleWithTracker,
} from './alert-fixtures';
import { backends, databaseFor } from './harness';
import { type ReceivedMail, startSmtp } from './smtp';

/** The text of a message, quoted-printable and base64 undone (enough for assertions). */
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

/** The Subject header, its RFC 2047 encoded words decoded. */
const subjectOf = (mail: ReceivedMail) => {
  const line = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? '';
  return line.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
    Buffer.from(
      text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-F]{2})/gi, (__, h: string) =>
          String.fromCharCode(Number.parseInt(h, 16)),
        ),
      'latin1',
    ).toString('utf8'),
  );
};

describe.each(await backends())('grouped alert e-mails on %s', (backend) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: RunningServer;
  let drop: () => Promise<void>;
  let admin: Caller;

  beforeAll(async () => {
    smtp = await startSmtp();
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal({ ...database.env, SMTP_URL: smtp.url });
    admin = await signIn(server.url, 'admin@rastro.demo');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
    await smtp?.close();
  });

  it('sends one message per rule per minute, with every alert of it, once', async () => {
    const { north } = await customers(admin);
    const plates = ['MAI1A11', 'MAI2B22', 'MAI3C33'];
    const vehicles = [];
    for (const plate of plates)
      vehicles.push(await vehicleWithTracker(admin, north, plate, `trk-${plate}`));
    await createRule(admin, {
      clientId: north,
      name: 'Ignição na madrugada',
      type: 'IGNITION_ON',
      vehicleIds: vehicles.map((v) => v.vehicleId),
      emailDelivery: 'central@frota.com.br, gerente@frota.com.br',
    });
    await createRule(admin, {
      clientId: north,
      name: 'Velocidade na BR',
      type: 'OVERSPEED',
      vehicleIds: [vehicles[0]?.vehicleId],
      params: { speedLimit: 80 },
      emailDelivery: 'seguranca@frota.com.br',
    });
    await createRule(admin, {
      clientId: north,
      name: 'Sem e-mail',
      type: 'IGNITION_OFF',
      vehicleIds: vehicles.map((v) => v.vehicleId),
    });
    const t0 = Math.floor(Date.now() / 1000) - 300;
    const message = (plate: string, s: number, on: boolean, speed = 0) => ({
      ident: `trk-${plate}`,
      timestamp: t0 + s,
      'position.latitude': -8.0539,
      'position.longitude': -34.8811,
      'position.speed': speed,
      'engine.ignition.status': on,
    });
    // One batch: one transaction, so every alert falls in the same minute.
    const batch = plates.flatMap((plate) => [message(plate, 0, false), message(plate, 10, true)]);
    batch.push(message('MAI1A11', 20, true, 120), message('MAI2B22', 30, false));
    expect((await flespi(server.url, batch)).body.stored).toBe(8);

    const { mail } = server.deps.alerts;
    // The minute is not over yet: nothing goes out.
    expect(await mail.flush(new Date())).toBe(0);
    expect(smtp.inbox).toEqual([]);
    const later = new Date(Date.now() + 2 * 60_000);
    expect(await mail.flush(later)).toBe(2);
    expect(await mail.flush(later)).toBe(0);
    expect(smtp.inbox).toHaveLength(2);

    const ignition = smtp.inbox.find((m) => m.to.includes('central@frota.com.br'));
    if (!ignition) throw new Error('no ignition e-mail');
    expect(ignition.to.sort()).toEqual(['central@frota.com.br', 'gerente@frota.com.br']);
    expect(subjectOf(ignition)).toContain('3 alertas');
    const text = textOf(ignition);
    expect(text).toContain('Ignição na madrugada');
    for (const plate of plates) expect(text).toContain(plate);
    expect(text.match(/Ignição ligada/g)?.length).toBeGreaterThanOrEqual(3);
    expect(text).toContain('https://www.openstreetmap.org/?mlat=-8.053900&mlon=-34.881100');
    expect(text).toContain('http://rastro.test/fleet-management/alerts/alerts-history');
    // The time of each alert in São Paulo, as people there read it.
    const local = new Date((t0 + 10) * 1000).toLocaleString('pt-BR', {
      timeZone: 'America/Sao_Paulo',
    });
    expect(text).toContain(local);

    const speeding = smtp.inbox.find((m) => m.to.includes('seguranca@frota.com.br'));
    if (!speeding) throw new Error('no overspeed e-mail');
    expect(subjectOf(speeding)).toContain('1 alerta');
    expect(textOf(speeding)).toContain('Excesso de velocidade');
  });
});
