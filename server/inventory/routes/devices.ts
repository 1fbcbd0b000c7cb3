/**
 * Devices as installers meet them: the connection settings a tracker's form shows (host and
 * each listener's port), and the administrator's list of identifiers that tried to connect
 * without matching a tracker (server/ingest/device-status.ts writes it), to create a tracker
 * from one or forget it.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type * as v from 'valibot';
import {
  DeviceSettingsSchema,
  MessageSchema,
  UnknownDevicePageSchema,
  UnknownDeviceParamSchema,
  UnknownDeviceQuerySchema,
} from '../../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { forgetUnknown, listUnknown } from '../../ingest/queries/device-status';
import { notFound } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';

/** `responses` with one JSON answer of 200. */
const json = (schema: v.GenericSchema, description: string) => ({ 200: docs(schema, description) });

export function deviceSettingsRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('create_resources'));
  app.get(
    '/',
    describeRoute({
      tags: ['Rastreadores'],
      summary: 'Onde os aparelhos enviam: servidor e porta de cada protocolo',
      responses: json(DeviceSettingsSchema, 'Configurações de conexão'),
    }),
    (c) => {
      const { config } = deps;
      return c.json({
        host: config.devices.host,
        ports: { osmand: config.osmandPort, wialon_ips: config.wialon.port, ...config.nativePorts },
        flespiStreamUrl: config.flespiStreamSecret
          ? `${config.publicUrl}/tech-integracao/v1/flespi/stream`
          : null,
        passwordRequired: config.devices.auth === 'required',
      });
    },
  );
  return app;
}

export function unknownDeviceRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  // Identifiers of every customer's would-be devices: the platform's administrators only.
  app.use(requireAuth(deps), requirePermission('AdvancedCommands'));
  app.get(
    '/',
    describeRoute({
      tags: ['Rastreadores'],
      summary: 'Identificadores que tentaram se conectar sem rastreador cadastrado',
      responses: json(UnknownDevicePageSchema, 'Página, do mais recente ao mais antigo'),
    }),
    validate('query', UnknownDeviceQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      await deps.devices.flush();
      const { rows, total } = await listUnknown(db, q);
      return c.json({ unknownDevices: rows, page: q.page, limit: q.limit, total });
    },
  );
  app.delete(
    '/:protocol/:identifier',
    describeRoute({
      tags: ['Rastreadores'],
      summary: 'Esquecer um identificador desconhecido',
      responses: json(MessageSchema, 'Removido'),
    }),
    validate('param', UnknownDeviceParamSchema),
    async (c) => {
      const { protocol, identifier } = c.req.valid('param');
      if (!(await forgetUnknown(db, identifier, protocol)))
        throw notFound('Identificador não encontrado');
      return c.json({ message: 'Identificador removido da lista.' });
    },
  );
  return app;
}
