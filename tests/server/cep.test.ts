/** CEP autocomplete through a local ViaCEP-compatible stand-in server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, backends, type ErrorBody, useServer } from './harness';

let stand: Server;
let hits = 0;
let url = '';

beforeAll(async () => {
  stand = createServer((req, res) => {
    hits += 1;
    const cep = /\/(\d{8})\/json\/?$/.exec(req.url ?? '')?.[1];
    res.setHeader('content-type', 'application/json');
    if (cep === '01001000') {
      res.end(
        JSON.stringify({
          cep: '01001-000',
          logradouro: 'Praça da Sé',
          complemento: 'lado ímpar',
          bairro: 'Sé',
          localidade: 'São Paulo',
          uf: 'SP',
        }),
      );
    } else if (cep === '99999999') {
      res.end(JSON.stringify({ erro: 'true' }));
    } else {
      res.statusCode = 500;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));

describe.each(await backends())('CEP autocomplete on %s', (backend) => {
  const server = useServer(backend, () => ({ CEP_URL: url, OUTSIDE_TIMEOUT_MS: '1000' }));

  it('fills the address from the service and caches it', async () => {
    const user = await as(server(), 'operador@rastro.demo');
    const first = await user.call('GET', '/registros/autocomplete/cep/01001-000');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      cep: '01001000',
      street: 'Praça da Sé',
      complement: 'lado ímpar',
      district: 'Sé',
      city: 'São Paulo',
      state: 'SP',
    });
    const count = hits;
    await user.call('GET', '/registros/autocomplete/cep/01001000');
    expect(hits).toBe(count);
  });

  it('says when a CEP does not exist, is malformed, or the service fails', async () => {
    const user = await as(server(), 'operador@rastro.demo');
    const missing = await user.call<ErrorBody>('GET', '/registros/autocomplete/cep/99999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('CEP não encontrado');
    const bad = await user.call<ErrorBody>('GET', '/registros/autocomplete/cep/123');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('CEP inválido');
    const broken = await user.call<ErrorBody>('GET', '/registros/autocomplete/cep/12345678');
    expect(broken.status).toBe(502);
    expect(broken.body.message).toBe(
      'Serviço de CEP indisponível no momento. Preencha o endereço manualmente.',
    );
  });

  it('needs a signed-in user', async () => {
    expect((await server().request('/registros/autocomplete/cep/01001000')).status).toBe(401);
  });
});
