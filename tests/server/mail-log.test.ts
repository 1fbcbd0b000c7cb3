/** Without SMTP_URL the server cannot send e-mail: it says so at start and logs each e-mail. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../server/app';
import type { Deps } from '../../server/deps';
import { createLogger } from '../../server/platform/log';
import { prepareTest } from './harness';

describe('e-mail without SMTP', () => {
  const lines: string[] = [];
  let deps: Deps;
  let spy: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    deps = await prepareTest({}, createLogger('warn'));
  });
  afterAll(async () => {
    spy.mockRestore();
    await deps.database.close();
  });

  const entries = () =>
    lines
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('warns at start and writes the recovery e-mail, with its link, to the log', async () => {
    expect(entries().some((e) => String(e.msg).startsWith('SMTP_URL não configurado'))).toBe(true);
    const app = createApp(deps, { serveStatic: false });
    const res = await app.request('/registros/auth/forgetPassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'operador.sul@rastro.demo' }),
    });
    expect(res.status).toBe(200);
    // The e-mail goes out after the answer.
    const mail = await vi.waitFor(() => {
      const found = entries().find(
        (e) =>
          String(e.msg).startsWith('SMTP não configurado') && e.to === 'operador.sul@rastro.demo',
      );
      if (!found) throw new Error('e-mail não registrado');
      return found;
    });
    expect(String(mail.text)).toContain('http://rastro.test/recover-password?token=');
  });
});
