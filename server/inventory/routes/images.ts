/**
 * Vehicle images (SPEC §7 `POST registros/upload-images/vehicle/{id}`, multipart field
 * `files`). Type is checked by content (the file's first bytes), not by the name the browser
 * sent; size and count are bounded. Files are stored under UPLOAD_DIR and served back only to
 * users who may see the vehicle.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import { MessageSchema } from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { badRequest, notFound } from '../../platform/http/errors';
import { MULTIPART_FILES, sniffUpload } from '../../platform/http/file-types';
import { IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { visibleVehicle } from '../../tenancy/scope';
import { countImages, deleteImage, getImage, insertImage } from '../queries/images';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_VEHICLE = 10;

/** What a vehicle image may be: photos, no documents. */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export function imageRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  // Mounted at /registros: authentication is per route so other paths keep their own answers.
  const auth = requireAuth(deps);
  const dir = (vehicleId: string) => path.join(deps.config.uploadDir, 'vehicles', vehicleId);

  const vehicle = (c: Context<AuthEnv>, id: string) => visibleVehicle(c, deps, id);

  app.post(
    '/upload-images/vehicle/:id',
    describeRoute({
      tags: ['Veículos'],
      summary: 'Enviar imagens do veículo (multipart, campo files; JPEG, PNG ou WebP até 5 MB)',
      requestBody: MULTIPART_FILES,
      responses: {
        201: {
          description: 'Imagens salvas',
          content: { 'application/json': { schema: resolver(MessageSchema) } },
        },
      },
    }),
    auth,
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const target = await vehicle(c, c.req.valid('param').id);
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw badRequest('Envie as imagens como multipart/form-data no campo files');
      });
      const files = ([] as unknown[])
        .concat(form.files ?? [])
        .filter((f): f is File => f instanceof File);
      if (files.length === 0) throw badRequest('Nenhuma imagem enviada no campo files');
      if ((await countImages(db, target.id)) + files.length > MAX_IMAGES_PER_VEHICLE) {
        throw badRequest(`Cada veículo pode ter no máximo ${MAX_IMAGES_PER_VEHICLE} imagens`);
      }
      const checked = await Promise.all(
        files.map(async (file) => {
          if (file.size > MAX_IMAGE_BYTES) throw badRequest(`${file.name}: imagem maior que 5 MB`);
          const bytes = Buffer.from(await file.arrayBuffer());
          const kind = sniffUpload(bytes, IMAGE_TYPES);
          if (!kind) throw badRequest(`${file.name}: formato não aceito (use JPEG, PNG ou WebP)`);
          return { file, bytes, kind };
        }),
      );
      await mkdir(dir(target.id), { recursive: true });
      for (const { file, bytes, kind } of checked) {
        const id = randomUUID();
        const fileName = `${id}.${kind.ext[0]}`;
        await writeFile(path.join(dir(target.id), fileName), bytes);
        await insertImage(db, {
          id,
          vehicleId: target.id,
          fileName,
          contentType: kind.type,
          size: file.size,
        });
      }
      const n = checked.length;
      return c.json({ message: n === 1 ? '1 imagem salva.' : `${n} imagens salvas.` }, 201);
    },
  );

  app.get(
    '/vehicle-images/:id',
    describeRoute({ tags: ['Veículos'], summary: 'Uma imagem de veículo' }),
    auth,
    validate('param', IdParam),
    async (c) => {
      const image = await getImage(db, c.req.valid('param').id);
      if (!image) throw notFound('Imagem não encontrada');
      await vehicle(c, image.vehicleId);
      const bytes = await readFile(path.join(dir(image.vehicleId), image.fileName)).catch(() => {
        throw notFound('Imagem não encontrada');
      });
      return c.body(new Uint8Array(bytes), 200, {
        'content-type': image.contentType,
        'cache-control': 'private, max-age=86400',
      });
    },
  );

  app.delete(
    '/vehicle-images/:id',
    describeRoute({ tags: ['Veículos'], summary: 'Remover uma imagem de veículo' }),
    auth,
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const image = await getImage(db, c.req.valid('param').id);
      if (!image) throw notFound('Imagem não encontrada');
      await vehicle(c, image.vehicleId);
      await deleteImage(db, image.id, image.vehicleId);
      await rm(path.join(dir(image.vehicleId), image.fileName), { force: true });
      return c.json({ message: 'Imagem removida.' });
    },
  );
  return app;
}
