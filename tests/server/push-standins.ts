/**
 * Local stand-ins for the outside push services, as real HTTP servers: Google's OAuth token
 * endpoint and the FCM HTTP v1 API (checking the service-account JWT with its public key), and
 * a Web Push endpoint that decrypts each payload (aes128gcm) with the subscription's own keys,
 * as the browser's push service and the browser would.
 */
import { createECDH, createVerify, type ECDH, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface FcmMessage {
  token: string;
  data: Record<string, string>;
}

/**
 * The FCM stand-in. Tokens in `gone` answer 404 UNREGISTERED. Requests are held and answered
 * together, so that the waves the sender sends (its batches) can be counted: `waves` has the
 * size of each. After `expect(total)`, a wave is answered once 500 requests (or the rest of
 * the total) are waiting, 200 ms later: a sender that does not wait for a wave's answers
 * before sending more shows up as a wave larger than 500.
 */
export async function startFcmStandIn() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    project_id: 'rastro-teste',
    client_email: 'push@rastro-teste.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  const messages: FcmMessage[] = [];
  const waves: number[] = [];
  const gone = new Set<string>();
  let tokenRequests = 0;
  let expected: number | undefined;
  let answered = 0;
  let held: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (held.length === 0) return;
    waves.push(held.length);
    const now = held;
    held = [];
    for (const answer of now) answer();
  };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    if (req.url === '/token') {
      const form = new URLSearchParams(body.toString());
      const [header, claims, signature] = (form.get('assertion') ?? '').split('.');
      const verifier = createVerify('RSA-SHA256');
      verifier.update(`${header}.${claims}`);
      const valid = verifier.verify(publicKey, Buffer.from(signature ?? '', 'base64url'));
      const claimed = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()) as {
        iss: string;
      };
      if (!valid || claimed.iss !== account.client_email) {
        res.writeHead(400).end('{"error":"invalid_grant"}');
        return;
      }
      tokenRequests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'ya29.teste', expires_in: 3600 }));
      return;
    }
    if (req.url !== `/v1/projects/${account.project_id}/messages:send`) {
      res.writeHead(404).end();
      return;
    }
    if (req.headers.authorization !== 'Bearer ya29.teste') {
      res.writeHead(401).end('{"error":{"status":"UNAUTHENTICATED"}}');
      return;
    }
    const { message } = JSON.parse(body.toString()) as { message: FcmMessage };
    held.push(() => {
      if (gone.has(message.token)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              status: 'NOT_FOUND',
              details: [
                {
                  '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError',
                  errorCode: 'UNREGISTERED',
                },
              ],
            },
          }),
        );
        return;
      }
      messages.push(message);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ name: `projects/${account.project_id}/messages/${messages.length}` }),
      );
    });
    if (expected === undefined) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(release, 40);
    } else if (!timer && (held.length >= 500 || held.length >= expected - answered)) {
      // A full wave is held a while longer: a sender that does not wait for its answers
      // sends more meanwhile, and the wave comes out larger than 500.
      timer = setTimeout(() => {
        answered += held.length;
        release();
      }, 200);
    }
  });
  const url = await listen(server);
  return {
    url,
    messages,
    waves,
    gone,
    tokenRequests: () => tokenRequests,
    /** From now on, waves are held until 500 or the rest of `total` requests arrived. */
    expect(total: number) {
      expected = total;
      answered = 0;
      waves.length = 0;
    },
    /** The environment that points Rastro at this stand-in. */
    env: {
      FIREBASE_SERVICE_ACCOUNT: JSON.stringify(account),
      FIREBASE_WEB_CONFIG: JSON.stringify({
        apiKey: 'chave-de-teste',
        projectId: account.project_id,
        messagingSenderId: '1234567890',
        appId: '1:1234567890:web:abcdef',
      }),
      FIREBASE_VAPID_KEY: 'BElaChaveVapidPublicaDoProjetoFirebaseDeTeste',
      FCM_URL: url,
      FIREBASE_TOKEN_URL: `${url}/token`,
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's subscription to the Web Push stand-in: its JSON and its private keys. */
export interface TestSubscription {
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

export async function startWebPushStandIn() {
  const subscriptions = new Map<string, TestSubscription>();
  const received: { id: string; payload: string; headers: IncomingMessage['headers'] }[] = [];
  const goneIds = new Set<string>();
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const subscription = subscriptions.get(id);
    if (!subscription || goneIds.has(id)) {
      res.writeHead(goneIds.has(id) ? 410 : 404).end();
      return;
    }
    const payload = decrypt(body, {
      version: 'aes128gcm',
      privateKey: subscription.ecdh,
      authSecret: subscription.auth,
    }).toString('utf8');
    received.push({ id, payload, headers: req.headers });
    res.writeHead(201).end();
  });
  const url = await listen(server);
  return {
    url,
    received,
    goneIds,
    /** A new subscription, as PushSubscription.toJSON() gives it. */
    subscribe(): TestSubscription & { id: string } {
      const id = randomBytes(8).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const subscription = {
        json: {
          endpoint: `${url}/push/${id}`,
          keys: {
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: auth.toString('base64url'),
          },
        },
        ecdh,
        auth,
      };
      subscriptions.set(id, subscription);
      return { ...subscription, id };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
