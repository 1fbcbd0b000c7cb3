/**
 * The audit log ('Auditoria'): changes with their fields before and after and never a secret,
 * commands with their outcome, sign-ins refused with the address they came from, written in
 * the change's own transaction, read only by managers and administrators within their
 * companies, exported as a spreadsheet and pruned past its retention.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getTableColumns, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/accounts/auth/passwords';
import { setUserPassword } from '../../server/accounts/queries/users';
import { auditChanges, isSecretField, MASK } from '../../server/audit/diff';
import { pruneExpiredAudit } from '../../server/ingest/queries/retention';
import { rowsOf } from '../../server/platform/db/client';
import * as schema from '../../server/schema';
import type { AuditEvent, AuditPage, Tracker, Vehicle } from '../../src/contract';
import { as, backends, demoClients, type TestServer, testConfig, useServer } from './harness';

describe('the secrets deny-list', () => {
  it('covers every column of the schema whose name says it holds a secret', () => {
    const named: string[] = [];
    for (const table of Object.values(schema)) {
      if (!(table instanceof PgTable)) continue;
      for (const [key, column] of Object.entries(getTableColumns(table))) {
        for (const name of [key, column.name])
          if (/password|token|secret|api_?key|totp/i.test(name)) named.push(name);
      }
    }
    expect(named).toContain('passwordHash');
    expect(named).toContain('commandPassword');
    expect(named.filter((name) => !isSecretField(name))).toEqual([]);
  });

  it('masks a changed secret on both sides and leaves out an unchanged one', () => {
    const changes = auditChanges(
      { plate: 'AAA1A11', passwordHash: 'h1', commandPassword: null, apiKey: 'k', token: 't' },
      { plate: 'AAA1A12', passwordHash: 'h2', commandPassword: '1234', apiKey: 'k', token: 't' },
    );
    expect(changes).toEqual({
      plate: ['AAA1A11', 'AAA1A12'],
      passwordHash: [MASK, MASK],
      commandPassword: [null, MASK],
    });
    expect(JSON.stringify(changes)).not.toMatch(/h1|h2|1234/);
  });

  it('reads a fresh configuration with a year of audit kept by default', () => {
    expect(testConfig().auditRetentionDays).toBe(365);
    expect(testConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
  });
});

let provider: Server;
let providerUrl = '';
beforeAll(async () => {
  provider = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ confirmed: true }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => provider.close(() => resolve())));

const events = async (caller: Awaited<ReturnType<typeof as>>, query: string) => {
  const res = await caller.call<AuditPage>('GET', `/registros/audit?${query}`);
  expect(res.status).toBe(200);
  return res.body.events;
};

async function auditText(s: TestServer): Promise<string> {
  const rows = rowsOf<{ line: string }>(
    await s.deps.database.db.execute(sql`select row_to_json(a)::text as line from audit_events a`),
  );
  return rows.map((r) => r.line).join('\n');
}

describe.each(await backends())('the audit log on %s', (backend) => {
  const server = useServer(backend, () => ({
    GETRAK_URL: providerUrl,
    GETRAK_TOKEN: 'tok-getrak',
    TRUST_PROXY: '1',
  }));

  it('records a vehicle change with who, where and the fields before and after', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const operator = await as(s, 'operador.norte@rastro.demo');
    const created = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Baú 1',
      plate: 'AUD1A11',
      type: 'truck',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const patched = await operator.call('PATCH', `/registros/vehicle/${id}`, {
      plate: 'AUD1A12',
      color: 'Azul',
    });
    expect(patched.status).toBe(200);

    const manager = await as(s, 'gestor.norte@rastro.demo');
    const found = await events(manager, `entity=vehicle&entityId=${id}`);
    expect(found.map((e) => e.kind)).toEqual(['update', 'create']);
    const [update] = found;
    expect(update).toMatchObject({
      actorEmail: 'operador.norte@rastro.demo',
      clientId: north,
      summary: 'AUD1A12',
      changes: { plate: ['AUD1A11', 'AUD1A12'], color: [null, 'Azul'] },
    });
    expect(update?.ip).toBeTruthy();
    expect(Object.keys(update?.changes ?? {})).not.toContain('updatedAt');
    expect(Date.now() - Date.parse(update?.at ?? '')).toBeLessThan(60_000);
  });

  it("never writes a tracker's device or command password, only that it changed", async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'audit-secret-1',
      provider: 'rastro',
      devicePassword: 'segredo-do-aparelho-77',
      commandPassword: 'Zq9x7',
    });
    expect(tracker.status).toBe(201);
    const patched = await admin.call('PATCH', `/registros/tracker/${tracker.body.id}`, {
      devicePassword: 'outro-segredo-88',
      commandPassword: 'Wv5k3',
    });
    expect(patched.status).toBe(200);
    const [update, create] = await events(admin, `entity=tracker&entityId=${tracker.body.id}`);
    expect(create?.changes?.devicePasswordHash).toEqual([null, MASK]);
    expect(create?.changes?.commandPassword).toEqual([null, MASK]);
    expect(update?.changes).toMatchObject({
      devicePasswordHash: [MASK, MASK],
      commandPassword: [MASK, MASK],
    });
    const everything = await auditText(s);
    for (const secret of ['segredo-do-aparelho-77', 'outro-segredo-88', 'Zq9x7', 'Wv5k3'])
      expect(everything).not.toContain(secret);
    const [hash] = rowsOf<{ h: string }>(
      await s.deps.database.db.execute(
        sql`select wialon_password_hash as h from trackers where id = ${tracker.body.id}`,
      ),
    );
    expect(hash?.h).toBeTruthy();
    expect(everything).not.toContain(hash?.h ?? 'no hash');
    // Nor a user's password hash.
    expect(everything).not.toMatch(/\$argon2|\$scrypt|\$2[aby]\$/);
  });

  it('records a command with who sent it and its outcome as it settles', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Carreta',
      plate: 'AUD2B22',
      type: 'truck',
    });
    const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'audit-getrak-1',
      provider: 'getrak',
      vehicleId: vehicle.body.id,
    });
    const operator = await as(s, 'operador.norte@rastro.demo');
    const block = await operator.call<{ id: string }>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicle.body.id}`,
    );
    expect(block.status).toBe(200);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const [line] = await events(manager, `kind=command&entityId=${block.body.id}`);
    expect(line).toMatchObject({
      entity: 'command',
      actorEmail: 'operador.norte@rastro.demo',
      summary: 'AUD2B22',
      outcome: 'confirmed',
      changes: { command: [null, 'block'], vehicleId: [null, vehicle.body.id] },
    });

    // A command settled later (the device's answer, an expiry) changes its line's outcome.
    await s.deps.database.db.execute(
      sql`update commands set status = 'failed' where id = ${block.body.id}`,
    );
    const [after] = await events(manager, `kind=command&entityId=${block.body.id}`);
    expect(after?.outcome).toBe('failed');

    // Activating a tracker is a change of the tracker.
    await s.deps.database.db.execute(
      sql`update trackers set active = false where id = ${tracker.body.id}`,
    );
    expect(
      (await operator.call('PUT', `/registros/tracker/activate/${tracker.body.id}`)).status,
    ).toBe(200);
    const [activation] = await events(manager, `entity=tracker&entityId=${tracker.body.id}`);
    expect(activation).toMatchObject({
      kind: 'update',
      actorEmail: 'operador.norte@rastro.demo',
      changes: { active: [false, true] },
    });
  });

  it('records a refused sign-in with the address it came from, never the password', async () => {
    const s = server();
    const res = await s.request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'gestor.sul@rastro.demo', password: 'senha-errada-123' },
      headers: { 'x-forwarded-for': '203.0.113.45' },
    });
    expect(res.status).toBe(401);
    const unknown = await s.request('/registros/auth/login', {
      method: 'POST',
      json: { email: 'ninguem@exemplo.com', password: 'senha-errada-456' },
      headers: { 'x-forwarded-for': '203.0.113.46' },
    });
    expect(unknown.status).toBe(401);
    const { south } = await demoClients(s);
    const manager = await as(s, 'gestor.sul@rastro.demo');
    const failed = await events(manager, 'kind=sign_in_failed');
    expect(failed[0]).toMatchObject({
      actorEmail: 'gestor.sul@rastro.demo',
      ip: '203.0.113.45',
      clientId: south,
      entity: 'session',
    });
    // The unknown e-mail belongs to no company: only the administrator reads it.
    expect(failed.map((e) => e.actorEmail)).not.toContain('ninguem@exemplo.com');
    const admin = await as(s, 'admin@rastro.demo');
    const all = await events(admin, 'kind=sign_in_failed');
    expect(all.find((e) => e.actorEmail === 'ninguem@exemplo.com')?.ip).toBe('203.0.113.46');
    const signIns = await events(manager, 'kind=sign_in');
    expect(signIns[0]?.actorEmail).toBe('gestor.sul@rastro.demo');
    // Nor does the Administrador of a customer company: those lines are the platform's.
    const created = await admin.call<{ id: string }>('POST', '/registros/user', {
      name: 'Administradora Sul',
      email: 'admin.sul@exemplo.com',
      role: 'ADMINISTRATOR',
      clientId: south,
    });
    expect(created.status).toBe(201);
    await setUserPassword(s.deps.database.db, created.body.id, await hashPassword('rastro-demo'));
    const southAdmin = await as(s, 'admin.sul@exemplo.com');
    const theirs = await events(southAdmin, 'kind=sign_in_failed');
    expect(theirs.map((e) => e.actorEmail)).toContain('gestor.sul@rastro.demo');
    expect(theirs.map((e) => e.actorEmail)).not.toContain('ninguem@exemplo.com');
    expect(await auditText(s)).not.toMatch(/senha-errada/);
  });

  it('records a password change and a sign-out', async () => {
    const s = server();
    const user = await as(s, 'operador.sul@rastro.demo');
    const changed = await user.call('PUT', '/registros/auth/password', {
      currentPassword: 'rastro-demo',
      newPassword: 'nova-senha-forte-1',
    });
    expect(changed.status).toBe(200);
    const out = await s.request('/registros/auth/logout', {
      method: 'POST',
      json: { refreshToken: user.refreshToken },
    });
    expect(out.status).toBe(200);
    const manager = await as(s, 'gestor.sul@rastro.demo');
    const lines = await events(manager, `userId=${user.user.id}`);
    expect(lines.map((e) => e.kind).slice(0, 3)).toEqual([
      'sign_out',
      'password_change',
      'sign_in',
    ]);
    expect(await auditText(s)).not.toContain('nova-senha-forte-1');
  });

  it("keeps each company's lines to its managers, and the log from other roles", async () => {
    const s = server();
    const { north } = await demoClients(s);
    const operator = await as(s, 'operador.norte@rastro.demo');
    const created = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Norte',
      plate: 'AUD3C33',
      type: 'truck',
    });
    const north_ = await as(s, 'gestor.norte@rastro.demo');
    const [line] = await events(north_, `entityId=${created.body.id}`);
    if (!line) throw new Error('no line');

    const south = await as(s, 'gestor.sul@rastro.demo');
    expect(await events(south, `entityId=${created.body.id}`)).toEqual([]);
    expect((await events(south, 'pageSize=200')).every((e) => e.clientId !== north)).toBe(true);
    expect((await south.call('GET', `/registros/audit/${line.id}`)).status).toBe(404);
    expect((await south.call('GET', `/registros/audit?clientId=${north}`)).status).toBe(404);
    expect((await north_.call<AuditEvent>('GET', `/registros/audit/${line.id}`)).body.id).toBe(
      line.id,
    );
    for (const email of [
      'terceiro@rastro.demo',
      'operador.norte@rastro.demo',
      'cliente.norte@rastro.demo',
    ]) {
      const caller = await as(s, email).catch(() => undefined);
      if (!caller) continue;
      expect((await caller.call('GET', '/registros/audit')).status).toBe(403);
      expect((await caller.call('GET', '/registros/audit/download')).status).toBe(403);
    }
  });

  it('writes no line when the change fails, and no change when its line cannot be written', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const first = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Um',
      plate: 'AUD4D44',
      type: 'truck',
    });
    const count = async () =>
      rowsOf<{ n: number }>(
        await s.deps.database.db.execute(sql`select count(*)::int as n from audit_events`),
      )[0]?.n;
    const before = await count();
    const duplicate = await admin.call('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Dois',
      plate: 'AUD4D44',
      type: 'truck',
    });
    expect(duplicate.status).toBe(409);
    expect(await count()).toBe(before);

    // The log refuses the line: the change goes back with it.
    const { db } = s.deps.database;
    await db.execute(
      sql.raw(
        `alter table audit_events add constraint audit_refuses_vehicles check (entity <> 'vehicle') not valid`,
      ),
    );
    try {
      const patched = await admin.call('PATCH', `/registros/vehicle/${first.body.id}`, {
        color: 'Verde',
      });
      expect(patched.status).toBe(500);
    } finally {
      await db.execute(sql.raw('alter table audit_events drop constraint audit_refuses_vehicles'));
    }
    const vehicle = await admin.call<Vehicle>('GET', `/registros/vehicle/${first.body.id}`);
    expect(vehicle.body.color ?? null).toBeNull();
    expect(await count()).toBe(before);
  });

  it('records customers, users, geofences, share links and report rules, never a token', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const customer = await admin.call<{ id: string }>('POST', '/registros/client', {
      personKind: 'juridical',
      name: 'Filial Auditada',
      clientCNPJ: '45.997.418/0001-53',
      motherCompanyId: north,
    });
    expect(customer.status).toBe(201);
    await admin.call('PATCH', `/registros/client/${customer.body.id}`, { name: 'Filial Revista' });
    const user = await admin.call<{ id: string }>('POST', '/registros/user', {
      name: 'Pessoa Auditada',
      email: 'pessoa.auditada@exemplo.com',
      role: 'OPERATOR',
      clientId: north,
    });
    expect(user.status).toBe(201);
    await admin.call('PATCH', `/registros/user/${user.body.id}`, { role: 'CLIENT' });
    const geofence = await admin.call<{ id: string }>('POST', '/registros/geofence', {
      clientId: north,
      name: 'Pátio auditado',
      geometry: { type: 'Circle', center: [-34.9, -8.05], radius: 200 },
    });
    expect(geofence.status).toBe(201);
    await admin.call('DELETE', `/registros/geofence/${geofence.body.id}`);
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Link',
      plate: 'AUD6F66',
      type: 'truck',
    });
    const link = await admin.call<{ id: string; token: string }>(
      'POST',
      '/registros/temporaryUser/create_temporary_link',
      { name: 'Link auditado', vehicleIds: [vehicle.body.id] },
    );
    expect(link.status).toBe(201);
    await admin.call('DELETE', `/registros/temporaryUser/${link.body.id}`);
    const rule = await admin.call<{ id: string }>('POST', '/registros/crud-reports-processor', {
      clientId: north,
      name: 'Semanal auditado',
      reportType: 'TRIPS',
      periodicity: 'WEEKLY',
      vehicleIds: [vehicle.body.id],
      emailDelivery: 'gestor@rastro.demo',
    });
    expect(rule.status).toBe(201);

    const manager = await as(s, 'gestor.norte@rastro.demo');
    const kinds = async (entity: string, id: string) =>
      (await events(manager, `entity=${entity}&entityId=${id}`)).map((e) => e.kind);
    expect(await kinds('customer', customer.body.id)).toEqual(['update', 'create']);
    const [customerUpdate] = await events(manager, `entityId=${customer.body.id}`);
    expect(customerUpdate?.changes?.name).toEqual(['Filial Auditada', 'Filial Revista']);
    expect(await kinds('user', user.body.id)).toEqual(['update', 'create']);
    const [roleChange] = await events(manager, `entity=user&entityId=${user.body.id}`);
    expect(roleChange?.changes?.role).toEqual(['OPERATOR', 'CLIENT']);
    expect(await kinds('geofence', geofence.body.id)).toEqual(['delete', 'create']);
    expect(await kinds('share_link', link.body.id)).toEqual(['update', 'create']);
    expect(await kinds('report_rule', rule.body.id)).toEqual(['create']);
    const everything = await auditText(s);
    expect(link.body.token).toBeTruthy();
    expect(everything).not.toContain(link.body.token);
  });

  it('exports the filtered lines as a spreadsheet', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    await admin.call('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Planilha',
      plate: 'AUD5E55',
      type: 'truck',
    });
    const res = await s.request('/registros/audit/download?entity=vehicle', {
      token: admin.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain('auditoria.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const cells: string[] = [];
    sheet?.eachRow((row) => {
      cells.push(
        (row.values as unknown[])
          .slice(1)
          .map((v) => String(v ?? ''))
          .join(' | '),
      );
    });
    const line = cells.find((text) => text.includes('AUD5E55'));
    expect(line).toContain('admin@rastro.demo');
    expect(line).toContain('Criação de veículo');
    expect(cells.some((text) => text.includes('Quando') && text.includes('Antes → depois'))).toBe(
      true,
    );
  });

  it('prunes the lines past their retention and keeps the rest', async () => {
    const s = server();
    const { db } = s.deps.database;
    const { north } = await demoClients(s);
    await db.execute(sql`
      insert into audit_events (at, client_id, kind, entity, summary) values
        (now() - interval '400 days', ${north}, 'update', 'vehicle', 'velho-400'),
        (now() - interval '10 days', ${north}, 'update', 'vehicle', 'novo-10')`);
    expect(await pruneExpiredAudit(db, 0)).toBe(0);
    expect(await pruneExpiredAudit(db, 365)).toBeGreaterThanOrEqual(1);
    const left = rowsOf<{ summary: string }>(
      await db.execute(
        sql`select summary from audit_events where summary in ('velho-400', 'novo-10')`,
      ),
    ).map((r) => r.summary);
    expect(left).toEqual(['novo-10']);
  });

  it('refuses bad filters with a clear message', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const bad = await admin.call<{ message: string }>(
      'GET',
      '/registros/audit?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
    );
    expect(bad.status).toBe(400);
    expect((await admin.call('GET', '/registros/audit?kind=nada')).status).toBe(400);
    expect((await admin.call('GET', '/registros/audit?pageSize=5000')).status).toBe(400);
  });
});
