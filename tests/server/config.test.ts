import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/platform/config';
import { withDemoDefaults } from '../../server/start';

describe('loadConfig', () => {
  it('runs the embedded demo with no variables at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      seedDemo: true,
      smtpUrl: undefined,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads and converts the variables', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://rastro@db/rastro',
      PUBLIC_URL: 'https://rastro.example.com.br/',
      SEED_DEMO: 'false',
      TRUST_PROXY: 'sim',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://rastro@db/rastro',
      publicUrl: 'https://rastro.example.com.br',
      seedDemo: false,
      trustProxy: 1,
    });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '64MB' }).database.pgliteSharedBuffers).toBe('64MB');
    expect(loadConfig({}).database.pgliteSharedBuffers).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(
      loadConfig({ FIREBASE_HOSTS: 'https://a.googleapis.com, https://b.googleapis.com' }).csp,
    ).toMatchObject({ firebaseHosts: ['https://a.googleapis.com', 'https://b.googleapis.com'] });
    expect(() => loadConfig({ TRUST_PROXY: 'muitos' })).toThrow(/TRUST_PROXY/);
  });

  it('names every invalid variable in pt-BR', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'curto',
        PGLITE_SHARED_BUFFERS: '16 megas',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: Tipo inválido/);
    expect(attempt).toThrow(/DATABASE_URL: deve começar com postgres:\/\//);
    expect(attempt).toThrow(/JWT_SECRET: deve ter 32 caracteres ou mais/);
    expect(attempt).toThrow(
      /PGLITE_SHARED_BUFFERS: deve ser um tamanho de memória do PostgreSQL de 128kB a 1GB/,
    );
    for (const size of ['64kB', '2GB', '0MB', '16 MB', '16mb'])
      expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: size }), size).toThrow(
        /PGLITE_SHARED_BUFFERS/,
      );
    for (const size of ['128kB', '16MB', '1GB'])
      expect(loadConfig({ PGLITE_SHARED_BUFFERS: size }).database.pgliteSharedBuffers).toBe(size);
  });

  it('pushes by Web Push with nothing set, and by FCM only with all three Firebase values', () => {
    const none = loadConfig({});
    expect(none.push.firebase).toBeUndefined();
    expect(none.push.webPushSubject).toMatch(/^mailto:/);
    expect(none.csp.firebaseHosts).toEqual([]);
    expect(() => loadConfig({ FIREBASE_WEB_CONFIG: '{"apiKey":"x"}' })).toThrow(
      /FIREBASE_SERVICE_ACCOUNT, FIREBASE_WEB_CONFIG e FIREBASE_VAPID_KEY/,
    );
    expect(() =>
      loadConfig({
        FIREBASE_SERVICE_ACCOUNT: '{"project_id":"p"}',
        FIREBASE_WEB_CONFIG: '{"apiKey":"a","projectId":"p","messagingSenderId":"1","appId":"x"}',
        FIREBASE_VAPID_KEY: 'BChave',
      }),
    ).toThrow(/FIREBASE_SERVICE_ACCOUNT: faltam campos \(client_email, private_key\)/);
    const fcm = loadConfig({
      FIREBASE_SERVICE_ACCOUNT: JSON.stringify({
        project_id: 'p',
        client_email: 'push@p.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n',
      }),
      FIREBASE_WEB_CONFIG: '{"apiKey":"a","projectId":"p","messagingSenderId":"1","appId":"x"}',
      FIREBASE_VAPID_KEY: 'BChave',
    });
    expect(fcm.push.firebase).toMatchObject({
      fcmUrl: 'https://fcm.googleapis.com',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      vapidKey: 'BChave',
    });
    expect(fcm.csp.firebaseHosts).toContain('https://fcmregistrations.googleapis.com');
    expect(() => loadConfig({ WEB_PUSH_SUBJECT: 'rastro' })).toThrow(/WEB_PUSH_SUBJECT/);
  });
});

describe('payments and support configuration', () => {
  it('reads the payment and support variables, refusing bad values by name', () => {
    const config = loadConfig({
      PAYMENTS_URL: 'https://api.asaas.com/v3/',
      PAYMENTS_TOKEN: 'token',
      PAYMENTS_WEBHOOK_TOKEN: 'a-webhook-token-of-length',
      SUPPORT_WHATSAPP: 'https://wa.me/5581999990000',
    });
    expect(config.payments).toMatchObject({
      url: 'https://api.asaas.com/v3',
      token: 'token',
      syncMs: 300_000,
      demo: true,
    });
    expect(() => loadConfig({ PAYMENTS_URL: 'api.asaas.com' })).toThrow(/PAYMENTS_URL/);
    expect(() => loadConfig({ PAYMENTS_WEBHOOK_TOKEN: 'short' })).toThrow(/PAYMENTS_WEBHOOK_TOKEN/);
    expect(() => loadConfig({ SUPPORT_WHATSAPP: 'javascript:alert(1)' })).toThrow(
      /SUPPORT_WHATSAPP/,
    );
  });
});

describe('the demo support contact', () => {
  const support = (env: Record<string, string>) => withDemoDefaults(loadConfig(env)).support;
  it('is given only by the demo, and only when no contact is configured', () => {
    expect(support({})).toEqual({
      email: 'financeiro@rastro.demo',
      phone: '(81) 3234-5678',
      whatsapp: '(81) 99876-5432',
      demo: true,
    });
    // A contact of the deployment's own, even one part of it, is never mixed with the demo's.
    expect(support({ SUPPORT_PHONE: '(11) 4000-1234' })).toEqual({
      email: undefined,
      phone: '(11) 4000-1234',
      whatsapp: undefined,
      demo: true,
    });
    const offs: Record<string, string>[] = [{ SEED_DEMO: 'false' }, { SUPPORT_DEMO: 'false' }];
    for (const off of offs)
      expect(support(off)).toMatchObject({
        email: undefined,
        phone: undefined,
        whatsapp: undefined,
      });
  });
});
