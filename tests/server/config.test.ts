import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

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
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(
      loadConfig({ FIREBASE_HOSTS: 'https://a.googleapis.com, https://b.googleapis.com' }).csp,
    ).toMatchObject({ firebaseHosts: ['https://a.googleapis.com', 'https://b.googleapis.com'] });
    expect(() => loadConfig({ TRUST_PROXY: 'muitos' })).toThrow(/TRUST_PROXY/);
  });

  it('names every invalid variable in pt-BR', () => {
    const attempt = () =>
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', JWT_SECRET: 'curto' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: Tipo inválido/);
    expect(attempt).toThrow(/DATABASE_URL: deve começar com postgres:\/\//);
    expect(attempt).toThrow(/JWT_SECRET: deve ter 32 caracteres ou mais/);
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
