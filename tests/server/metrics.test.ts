/**
 * GET /metrics (server/platform/metrics.ts): off without METRICS_TOKEN, refused without the token,
 * and with it this process's figures in Prometheus's text format — positions by result as the
 * listeners take them, Wialon IPS connections as devices connect, memory and CPU.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/platform/metrics';
import type { RunningServer } from '../../server/start';
import { startTestServer, testConfig } from './harness';

const TOKEN = 'token-de-metricas-0123456789';

/** The samples of a text exposition, by name and labels (`name{a="b"}`), checking each line. */
function parse(text: string) {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.trimEnd().split('\n')) {
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge)$/.exec(line);
    if (type?.[1] && type[2]) {
      types.set(type[1], type[2]);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const sample =
      /^([a-zA-Z_:][\w:]*(?:\{(?:[a-zA-Z_]\w*="(?:[^"\\\n]|\\.)*",?)*\})?) (\S+)$/.exec(line);
    if (!sample?.[1] || !sample[2]) throw new Error(`not a sample line: ${line}`);
    samples.set(sample[1], Number(sample[2]));
  }
  return { samples, types };
}

describe('GET /metrics', () => {
  let server: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({
      METRICS_TOKEN: TOKEN,
      SEED_DEMO_FLEET: 'true',
      SIMULATOR: 'off',
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
    });
    off = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await off.close();
  });

  const scrape = (token?: string, at = server) =>
    fetch(`${at.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const figures = async () => {
    const res = await scrape(TOKEN);
    expect(res.status).toBe(200);
    return parse(await res.text());
  };

  it('is off without METRICS_TOKEN, and refuses a scraper without the right token', async () => {
    expect((await scrape(TOKEN, off)).status).toBe(404);
    for (const token of [undefined, 'outro-token-0123456789', `${TOKEN}x`]) {
      const res = await scrape(token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe(
        'Token de métricas inválido',
      );
    }
    // A token short enough to guess is refused at start.
    expect(() => testConfig({ METRICS_TOKEN: 'curto' })).toThrow(
      'METRICS_TOKEN: deve ter 16 caracteres ou mais',
    );
    const res = await scrape(TOKEN);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it("counts the positions taken and refused, and the process's own figures", async () => {
    const before = (await figures()).samples;
    const stored = 'rastro_ingest_fixes_total{result="stored"}';
    // The demo's phone demo-001 with its own device password (server/demo/fleet.ts).
    const osmand = (query: string) =>
      fetch(`http://127.0.0.1:${server.osmandPort}/?password=rastro-demo-001&${query}`);
    const t = Math.floor(Date.now() / 1000) - 60;
    expect((await osmand(`id=demo-001&lat=-8.05&lon=-34.9&timestamp=${t}`)).status).toBe(200);
    expect((await osmand(`id=demo-001&lat=-8.05&lon=-34.9&timestamp=${t}`)).status).toBe(200);
    // Without GPS: its readings are stored at the last place.
    expect((await osmand(`id=demo-001&lat=-8.3&lon=-34.9&valid=0&timestamp=${t + 1}`)).status).toBe(
      200,
    );
    expect((await osmand('id=nao-cadastrado&lat=-8&lon=-34')).status).toBe(404);
    const wrong = await fetch(
      `http://127.0.0.1:${server.osmandPort}/?password=outra-senha&id=demo-001&lat=-8&lon=-34`,
    );
    expect(wrong.status).toBe(404);

    const { samples, types } = await figures();
    const grew = (name: string) => (samples.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(grew(stored)).toBe(2);
    expect(grew('rastro_ingest_fixes_total{result="duplicate"}')).toBe(1);
    expect(grew('rastro_ingest_fixes_total{result="unknown_device"}')).toBe(1);
    expect(grew('rastro_ingest_fixes_total{result="wrong_password"}')).toBe(1);
    expect(types.get('rastro_ingest_fixes_total')).toBe('counter');
    expect(samples.get('rastro_ingest_queued_fixes')).toBe(0);
    expect(samples.get('rastro_ingest_backlogged')).toBe(0);
    expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(samples.get('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(samples.get('nodejs_eventloop_delay_seconds{stat="max"}')).toBeGreaterThanOrEqual(
      samples.get('nodejs_eventloop_delay_seconds{stat="p99"}') ?? 0,
    );
    expect([...samples.keys()].some((k) => k.startsWith('rastro_build_info{version="'))).toBe(true);
  });

  it('counts the warnings and errors logged, silent or not, of every part', async () => {
    const before = (await figures()).samples;
    // The test server logs nothing (LOG_LEVEL silent); the counts go on.
    server.deps.log.warn('um aviso');
    server.deps.log.child({ part: 'teste' }).error('um erro');
    server.deps.log.child({ part: 'teste' }).child({ more: 1 }).warn('outro aviso');
    server.deps.log.info('só informação');
    const { samples } = await figures();
    const grew = (level: string) => {
      const name = `rastro_log_messages_total{level="${level}"}`;
      return (samples.get(name) ?? 0) - (before.get(name) ?? 0);
    };
    expect(grew('warn')).toBe(2);
    expect(grew('error')).toBe(1);
  });

  it('shows the Wialon IPS connections as devices connect and leave', async () => {
    const connections = async () => (await figures()).samples.get('rastro_wialon_connections');
    expect(await connections()).toBe(0);
    const device = connect(server.wialonPort ?? 0, '127.0.0.1');
    await new Promise<void>((resolve) => device.once('connect', () => resolve()));
    await expect.poll(connections).toBe(1);
    device.destroy();
    await expect.poll(connections).toBe(0);
  });
});

describe('the registry', () => {
  it('stops what it started when the server closes, once, and its figures still read', () => {
    const metrics = createMetrics('teste');
    let stopped = 0;
    metrics.onClose(() => stopped++);
    metrics.close();
    metrics.close();
    expect(stopped).toBe(1);
    // The event-loop monitor is off, and a scrape after it still answers.
    const { samples } = parse(metrics.render());
    expect(samples.get('rastro_build_info{version="teste"}')).toBe(1);
  });
});
