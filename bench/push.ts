/**
 * Push fan-out (`npm run bench`, part 'push'): one alert to every device of its audience, sent
 * to local stand-ins that answer at once — FCM HTTP v1 for BENCH_PUSH_FCM tokens (batches of
 * 500 requests in flight) and Web Push for BENCH_PUSH_WEB subscriptions (each payload
 * encrypted for its own keys and signed with VAPID). Prints the time, the rate and the event
 * loop's longest pause; asserts nothing.
 */
import { createECDH, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoredAlert } from '../server/alerts/notifier';
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/log';
import { pushTokens, users } from '../server/schema';
import { prepare } from '../server/start';
import { withLoopWatch } from './loop-watch';

const FCM_TOKENS = Number(process.env.BENCH_PUSH_FCM ?? 5000);
const WEB_SUBSCRIPTIONS = Number(process.env.BENCH_PUSH_WEB ?? 1000);

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function benchPush() {
  let received = 0;
  const standIn = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      if (req.url === '/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"access_token":"bench","expires_in":3600}');
      } else res.writeHead(req.url?.startsWith('/push/') ? 201 : 200).end('{}');
    });
  });
  const url = await listen(standIn);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    SEED_DEMO_FLEET: 'false',
    SEED_DEMO_HISTORY_DAYS: '0',
    OSMAND_PORT: 'off',
    WIALON_IPS_PORT: 'off',
    PUSH_INSECURE_ENDPOINTS: 'true',
    FIREBASE_SERVICE_ACCOUNT: JSON.stringify({
      project_id: 'bench',
      client_email: 'push@bench.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }),
    FIREBASE_WEB_CONFIG: '{"apiKey":"a","projectId":"bench","messagingSenderId":"1","appId":"x"}',
    FIREBASE_VAPID_KEY: 'BBench',
    FCM_URL: url,
    FIREBASE_TOKEN_URL: `${url}/token`,
  });
  const deps = await prepare(config, createLogger('silent'));
  try {
    const { db } = deps.database;
    const [admin] = await db.select().from(users).limit(1);
    if (!admin) throw new Error('no user');
    const alert: StoredAlert = {
      id: '00000000-0000-4000-8000-000000000001',
      type: 'GEOFENCE_EXIT',
      vehicleId: '00000000-0000-4000-8000-000000000002',
      plate: 'RST1D01',
      vehicleName: 'Caminhão 01',
      driverId: null,
      driverName: null,
      document: null,
      ruleId: null,
      ruleName: null,
      latitude: -8.05,
      longitude: -34.88,
      speed: 40,
      fixTime: new Date().toISOString(),
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      acknowledgedAt: null,
      acknowledgedBy: null,
      late: false,
      clientId: admin.clientId,
      geofenceId: null,
      geofenceName: 'Garagem',
      emailDelivery: '',
      details: {},
    };
    console.log('\nPush: um alerta para todos os aparelhos de quem o vê (substitutos locais)');
    const insert = async (tokens: { token: string; kind: 'fcm' | 'webpush' }[]) => {
      for (let i = 0; i < tokens.length; i += 1000)
        await db
          .insert(pushTokens)
          .values(tokens.slice(i, i + 1000).map((t) => ({ ...t, userId: admin.id })));
    };
    const run = async (label: string, n: number) => {
      received = 0;
      const { result, ms, pauseMs } = await withLoopWatch(() => deps.push.sender.send([alert]));
      console.log(
        `  ${label}: ${n} em ${Math.round(ms)} ms (${Math.round((result.sent / ms) * 1000)}/s), ` +
          `${result.failed} falhas, ${received} pedidos recebidos, maior pausa do event loop ${Math.round(pauseMs)} ms`,
      );
    };
    await insert(
      Array.from({ length: FCM_TOKENS }, (_, i) => ({ token: `fcm-${i}`, kind: 'fcm' })),
    );
    await run('FCM HTTP v1', FCM_TOKENS);
    await db.delete(pushTokens);
    await insert(
      Array.from({ length: WEB_SUBSCRIPTIONS }, (_, i) => {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        return {
          kind: 'webpush' as const,
          token: JSON.stringify({
            endpoint: `${url}/push/${i}`,
            keys: {
              p256dh: ecdh.getPublicKey().toString('base64url'),
              auth: randomBytes(16).toString('base64url'),
            },
          }),
        };
      }),
    );
    await run('Web Push (cifrado por inscrição)', WEB_SUBSCRIPTIONS);
  } finally {
    await deps.database.close();
    await new Promise<void>((resolve) => standIn.close(() => resolve()));
  }
}
