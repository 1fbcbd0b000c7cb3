/**
 * The server of the soak (bench/soak.ts), in a process of its own so that the resident memory
 * sampled is the server's alone: the demo as `npm start` runs it (fleet, simulator, alert
 * rules), on the environment the parent gives, plus SOAK_DEVICES vehicles with a tracker each
 * (identifiers `soak0`…) for the parent's load. Sends `{ url, osmandPort, wialonPort }` over
 * IPC once listening; 'stop' closes it.
 */
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/log';
import { startServer } from '../server/start';
import { seed } from './ingest';

const server = await startServer(
  loadConfig(process.env),
  createLogger(loadConfig(process.env).logLevel),
);
const devices = Number(process.env.SOAK_DEVICES ?? 300);
const { db } = server.deps.database;
const existing = await db.query.trackers.findFirst({
  where: (t, { eq }) => eq(t.identifier, 'soak0'),
});
if (!existing) await seed(server, 'soak', devices);
process.on('message', (message) => {
  if (message === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ url: server.url, osmandPort: server.osmandPort, wialonPort: server.wialonPort });
