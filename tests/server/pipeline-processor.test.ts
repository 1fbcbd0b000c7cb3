/**
 * The ingest pipeline's processor (the alert engine) works inside the ingest transaction; when
 * it fails, the batch's fixes are stored all the same (without their alerts) and acknowledged.
 */
import { describe, expect, it } from 'vitest';
import { createPipeline } from '../../server/ingest/pipeline';
import { createLogger } from '../../server/platform/log';
import type { LocationItem, Vehicle } from '../../src/contract';
import { as, demoClients, everyBackend, useServer } from './harness';

describe.each(await everyBackend())('a failing fix processor on %s', (backend) => {
  const server = useServer(backend);

  it('costs the alerts of the batch, never its fixes', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const v = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Processador',
      plate: 'PRC1A11',
      type: 'truck',
    });
    await admin.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'proc-1',
      provider: 'rastro',
      vehicleId: v.body.id,
    });
    let calls = 0;
    const pipeline = createPipeline(s.deps.database.db, s.config, createLogger('silent'), {
      async process() {
        calls += 1;
        throw new Error('engine broke');
      },
    });
    const at = Date.now() - 60_000;
    const result = await pipeline.accept(
      'proc-1',
      [0, 1, 2].map((i) => ({
        fixTime: new Date(at + i * 1000),
        latitude: -8.05,
        longitude: -34.9,
        attributes: {},
      })),
      'osmand',
    );
    expect(calls).toBe(1);
    expect(result).toMatchObject({ status: 'ok', stored: 3, rejected: [] });
    const last = await admin.call<LocationItem[]>(
      'GET',
      `/registros/real-time/lastLocation?clientId=${north}`,
    );
    expect(last.body.find((x) => x.plate === 'PRC1A11')?.fixTime).toBe(
      new Date(at + 2000).toISOString(),
    );
  });
});
