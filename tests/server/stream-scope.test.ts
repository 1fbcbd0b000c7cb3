/**
 * An open live stream follows what its caller may see: a vehicle unlinked from a Terceiro
 * stops streaming to him within one heartbeat, while his other vehicles go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/start';
import type { User } from '../../src/contract';
import { customers, epoch, osmand, signIn, startReal, vehicleWithTracker } from './alert-fixtures';
import { openStream } from './fixtures/live-stream';
import { backends, databaseFor } from './harness';

const HOME = { lat: -8.0539, lon: -34.8811 };

describe.each(await backends())('live stream scope on %s', (backend) => {
  let server: RunningServer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await databaseFor(backend);
    drop = database.drop;
    server = await startReal({ ...database.env, STREAM_HEARTBEAT_SECONDS: '1' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it('stops streaming a vehicle unlinked from a Terceiro within one heartbeat', async () => {
    const admin = await signIn(server.url, 'admin@rastro.demo');
    const { mother } = await customers(admin);
    const kept = await vehicleWithTracker(admin, mother, 'SCP1A11', 'trk-scope-kept');
    const gone = await vehicleWithTracker(admin, mother, 'SCP2B22', 'trk-scope-gone');
    const visitor = await signIn(server.url, 'terceiro@rastro.demo');
    const me = await visitor.call<User>('GET', `/registros/user/${visitor.userId}`);
    expect(me.body.role).toBe('VISITOR');
    for (const v of [kept, gone]) {
      const link = await admin.call(
        'POST',
        `/registros/visitor-role/add-vehicle/${visitor.userId}`,
        {
          vehicle: v.vehicleId,
        },
      );
      expect(link.status).toBe(200);
    }
    const port = server.osmandPort ?? 0;
    const fix = (id: string, seconds: number) =>
      osmand(port, {
        id,
        lat: HOME.lat,
        lon: HOME.lon,
        timestamp: epoch(new Date(Math.floor(Date.now() / 1000) * 1000 - seconds * 1000)),
      });
    const stream = await openStream(server.url, visitor);
    try {
      expect(await fix('trk-scope-gone', 60)).toBe(200);
      await stream.next((e) => e.event === 'location' && e.data.trackerId === gone.trackerId);

      const unlink = await admin.call(
        'DELETE',
        `/registros/visitor-role/${visitor.userId}/vehicles/${gone.vehicleId}`,
      );
      expect(unlink.status).toBe(200);
      // More than one heartbeat later.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect(await fix('trk-scope-gone', 30)).toBe(200);
      expect(await fix('trk-scope-kept', 20)).toBe(200);
      // Changes go out in the order they were stored: once the later one of the vehicle
      // still linked arrived, the unlinked one's would have been before it.
      await stream.next((e) => e.event === 'location' && e.data.trackerId === kept.trackerId);
      const goneEvents = stream.events.filter(
        (e) => e.event === 'location' && e.data.trackerId === gone.trackerId,
      );
      expect(goneEvents).toHaveLength(1);
      expect(stream.closed()).toBe(false);
    } finally {
      stream.close();
    }
  });
});
