/**
 * The geofence calls of SPEC §7 where they differ from the other customer-owned records:
 * their own removal message, the mirror's sync answer (live rows and every live id, no
 * tombstones), a Terceiro who sees none of them, a customer change held back by associated
 * vehicles, the association list not taken for an id, and the record's documented answer.
 * The plain CRUD (shape, default colour, geometry rules, associations) is in alerts-api.
 */
import { describe, expect, it } from 'vitest';
import type { AuditPage, Geofence, GeofencePage, Vehicle } from '../../src/contract';
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

const CIRCLE = { type: 'Circle', center: [-34.89, -8.05], radius: 200 };

async function fence(s: TestServer, clientId: string, name: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const res = await admin.call<Geofence>('POST', '/registros/geofence', {
    clientId,
    name,
    geometry: CIRCLE,
  });
  expect(res.status).toBe(201);
  return res.body;
}

interface DocSchema {
  $ref?: string;
  properties?: Record<string, DocSchema>;
}

describe.each(await backends())('geofence routes on %s', (backend) => {
  const server = useServer(backend);

  it('removes with its own message, then answers 404 in pt-BR', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const created = await fence(s, north, 'Removível');
    const removed = await manager.call('DELETE', `/registros/geofence/${created.id}`);
    expect(removed).toEqual({ status: 200, body: { message: 'Cerca removida.' } });
    const read = await manager.call<ErrorBody>('GET', `/registros/geofence/${created.id}`);
    expect(read.status).toBe(404);
    expect(read.body.message).toBe('Cerca eletrônica não encontrada');
    const again = await manager.call<ErrorBody>('DELETE', `/registros/geofence/${created.id}`);
    expect(again.status).toBe(404);
  });

  it('answers the mirror with the live geofences changed and every live id', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const since = new Date(Date.now() - 1000).toISOString();
    const kept = await fence(s, north, 'Mantida');
    const gone = await fence(s, north, 'Removida');
    await manager.call('DELETE', `/registros/geofence/${gone.id}`);
    const sync = await manager.call<GeofencePage>(
      'GET',
      `/registros/geofence?clientId=${north}&updatedSince=${encodeURIComponent(since)}&page=3&limit=1000`,
    );
    expect(sync.status).toBe(200);
    expect(Object.keys(sync.body).sort()).toEqual(['ids', 'items', 'limit', 'page', 'total']);
    // No tombstone: the removed one is simply absent from `ids`; one answer, page 1.
    expect(sync.body.items.map((g) => g.id)).toEqual([kept.id]);
    expect(sync.body).toMatchObject({ page: 1, limit: 1000, total: 1 });
    expect(sync.body.ids).toContain(kept.id);
    expect(sync.body.ids).not.toContain(gone.id);
    // The ordinary list has no `ids`.
    const list = await manager.call<GeofencePage>('GET', `/registros/geofence?clientId=${north}`);
    expect(Object.keys(list.body).sort()).toEqual(['items', 'limit', 'page', 'total']);
  });

  it('shows a Terceiro no geofence, in the list, the mirror, one by id or its vehicles', async () => {
    const s = server();
    const { mother } = await demoClients(s);
    const own = await fence(s, mother, 'Da matriz');
    const visitor = await as(s, 'terceiro@rastro.demo');
    const list = await visitor.call<GeofencePage>('GET', '/registros/geofence');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ items: [], total: 0 });
    const sync = await visitor.call<GeofencePage>(
      'GET',
      `/registros/geofence?updatedSince=${encodeURIComponent(new Date(0).toISOString())}`,
    );
    expect(sync.body).toMatchObject({ items: [], ids: [], total: 0 });
    const one = await visitor.call<ErrorBody>('GET', `/registros/geofence/${own.id}`);
    expect(one.status).toBe(404);
    expect(one.body.message).toBe('Cerca eletrônica não encontrada');
    const linked = await visitor.call(
      'GET',
      `/registros/geofence/vehicle-association?geofenceId=${own.id}`,
    );
    expect(linked.status).toBe(404);
  });

  it('keeps a geofence with vehicles from another company from changing customer', async () => {
    const s = server();
    const { mother, north, south } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Veículo GRT1A11',
      plate: 'GRT1A11',
      type: 'car',
    });
    const created = await fence(s, north, 'Pátio');
    const linked = await admin.call('POST', '/registros/geofence/vehicle-association', {
      geofenceId: created.id,
      vehicleAssociations: [{ vehicleId: vehicle.body.id, restrictionType: 'ALWAYS_INSIDE' }],
    });
    expect(linked.status).toBe(201);
    const sideways = await admin.call<ErrorBody>('PATCH', `/registros/geofence/${created.id}`, {
      clientId: south,
      name: 'Movida',
    });
    expect(sideways.status).toBe(400);
    expect(sideways.body.message).toContain('Remova as associações antes de mudar o cliente');
    const unchanged = await admin.call<Geofence>('GET', `/registros/geofence/${created.id}`);
    expect(unchanged.body).toMatchObject({ clientId: north, name: 'Pátio' });
    // Up to the company above, the vehicle stays within reach.
    const up = await admin.call<Geofence>('PATCH', `/registros/geofence/${created.id}`, {
      clientId: mother,
    });
    expect(up.status).toBe(200);
    expect(up.body.clientId).toBe(mother);
    const audit = await admin.call<AuditPage>(
      'GET',
      `/registros/audit?entity=geofence&entityId=${created.id}`,
    );
    expect(audit.body.events.map((e) => e.kind)).toEqual(['update', 'update', 'create']);
    expect(present(audit.body.events[0], 'the change').changes?.clientId).toEqual([north, mother]);
  });

  it('takes vehicle-association for the association list, not for an id', async () => {
    const s = server();
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const res = await manager.call<ErrorBody>('GET', '/registros/geofence/vehicle-association');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Informe geofenceId ou vehicleId');
  });

  it('documents one geofence, not a page, as the answer of create, read and change', async () => {
    const s = server();
    const res = await s.request('/registros/openapi.json');
    const doc = await jsonOf<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components?: { schemas?: Record<string, DocSchema> };
    }>(res);
    const answer = (path: string, method: string, status: string) => {
      const response = doc.paths[path]?.[method]?.responses[status] as
        | { content: { 'application/json': { schema: DocSchema } } }
        | undefined;
      const schema = present(response, `${method} ${path}`).content['application/json'].schema;
      const ref = schema.$ref?.replace('#/components/schemas/', '');
      return Object.keys((ref ? doc.components?.schemas?.[ref] : schema)?.properties ?? {});
    };
    expect(answer('/registros/geofence', 'get', '200')).toContain('items');
    expect(answer('/registros/geofence', 'post', '201')).toContain('geometry');
    expect(answer('/registros/geofence/{id}', 'get', '200')).toContain('geometry');
    expect(answer('/registros/geofence/{id}', 'patch', '200')).toContain('geometry');
  });
});
