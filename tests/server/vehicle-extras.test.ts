/** Plate lookup through a local stand-in provider, and vehicle images stored on disk. */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlateRecord, Vehicle } from '../../src/contract';
import type { Message } from './api-types';
import { as, backends, demoClients, type ErrorBody, jsonOf, present, useServer } from './harness';

let stand: Server;
let url = '';
beforeAll(async () => {
  stand = createServer((req, res) => {
    const plate = new URL(req.url ?? '/', 'http://x').searchParams.get('placa');
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== 'Bearer tok-placa') {
      res.statusCode = 401;
      res.end('{}');
    } else if (plate === 'ABC1D23') {
      res.end(
        JSON.stringify([
          {
            ano_fabricacao_veiculo: '2019',
            ano_modelo: '2020',
            chassi_veiculo: '9BWZZZ377VT004251',
            cor_veiculo: 'Branca',
            renavam: '01234567890',
            marca_modelo: 'VW/Gol 1.0',
            placa_veiculo: 'ABC1D23',
            nome_completo: 'Transportes Norte Ltda',
          },
        ]),
      );
    } else {
      res.end('[]');
    }
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(stand.address() as AddressInfo).port}/consulta`;
});
afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));

const png = readFileSync('public/icons/icon-192.png');

describe.each(await backends())('vehicle extras on %s', (backend) => {
  const server = useServer(backend, () => ({
    PLATE_LOOKUP_URL: url,
    PLATE_LOOKUP_TOKEN: 'tok-placa',
  }));

  it('looks plates up and says when one is not found', async () => {
    const operator = await as(server(), 'operador@rastro.demo');
    const found = await operator.call<PlateRecord[]>(
      'GET',
      '/registros/eligo/consultarPlaca?placa=abc-1d23',
    );
    expect(found.status).toBe(200);
    expect(found.body[0]).toMatchObject({
      marca_modelo: 'VW/Gol 1.0',
      ano_modelo: '2020',
      placa_veiculo: 'ABC1D23',
    });
    const missing = await operator.call<ErrorBody>(
      'GET',
      '/registros/eligo/consultarPlaca?placa=XYZ9876',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Placa não encontrada: XYZ9876');
    const bad = await operator.call('GET', '/registros/eligo/consultarPlaca?placa=12');
    expect(bad.status).toBe(400);
  });

  it('stores uploaded images, checks their type by content, and serves them back', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const operator = await as(s, 'operador.norte@rastro.demo');
    const vehicle = await operator.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Com foto',
      plate: 'FOT0A00',
      type: 'van',
    });
    const upload = (files: File[]) => {
      const form = new FormData();
      for (const file of files) form.append('files', file);
      return s.request(`/registros/upload-images/vehicle/${vehicle.body.id}`, {
        method: 'POST',
        body: form,
        token: operator.accessToken,
      });
    };
    const ok = await upload([
      new File([png], 'frente.png', { type: 'image/png' }),
      new File([png], 'lado.png'),
    ]);
    expect(ok.status).toBe(201);
    expect((await jsonOf<Message>(ok)).message).toBe('2 imagens salvas.');

    const fake = await upload([new File(['não sou imagem'], 'foto.jpg', { type: 'image/jpeg' })]);
    expect(fake.status).toBe(400);
    expect((await jsonOf<ErrorBody>(fake)).message).toBe(
      'foto.jpg: formato não aceito (use JPEG, PNG ou WebP)',
    );
    const empty = await upload([]);
    expect((await jsonOf<ErrorBody>(empty)).message).toBe('Nenhuma imagem enviada no campo files');

    const read = await operator.call<Vehicle>('GET', `/registros/vehicle/${vehicle.body.id}`);
    expect(read.body.images).toHaveLength(2);
    const image = present(read.body.images[0], 'vehicle image');
    expect(image).toMatchObject({ contentType: 'image/png', size: png.length });
    const served = await s.request(image.url, { token: operator.accessToken });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect((await s.request(image.url)).status).toBe(401);

    const removed = await operator.call('DELETE', image.url);
    expect(removed.status).toBe(200);
    expect(
      (await operator.call<Vehicle>('GET', `/registros/vehicle/${vehicle.body.id}`)).body.images,
    ).toHaveLength(1);
  });
});

describe.each(await backends())('vehicle extras without configuration on %s', (backend) => {
  const server = useServer(backend);
  it('says plate lookup is not set up', async () => {
    const operator = await as(server(), 'operador@rastro.demo');
    const res = await operator.call<ErrorBody>(
      'GET',
      '/registros/eligo/consultarPlaca?placa=ABC1D23',
    );
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'Consulta de placa não configurada. Defina PLATE_LOOKUP_URL e PLATE_LOOKUP_TOKEN.',
    );
  });
});
