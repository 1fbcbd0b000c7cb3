/**
 * Commands of SPEC §7: block, unblock and suspend a vehicle, enable and disable a device,
 * activate a tracker, and register vehicles and devices with a provider. Each command goes
 * out through the integration that owns the vehicle's tracker and is recorded with who sent
 * it and its state (pending, sent, confirmed, failed, expired).
 *
 * Our own trackers ('rastro'): a block or unblock for a Wialon IPS tracker is stored as
 * pending and goes out over the device's connection (server/ingest/downlink.ts) — at once
 * when it is connected to this process, else at its next login — until it expires. An
 * OsmAnd tracker (HTTP, no way back to the device) cannot take commands: refused at once,
 * never queued. Enabling or disabling is Rastro's own flag for those trackers: applied here.
 */
import { type Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  type Command,
  CommandListSchema,
  CommandSchema,
  IdSchema,
  MessageSchema,
  TrackerIdBodySchema,
  VehicleIdQuerySchema,
} from '../../src/contract';
import * as o from '../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import {
  type CommandKind,
  INTEGRATIONS,
  type IntegrationName,
  notConfigured,
} from '../adapters/integrations';
import { auditChanges } from '../audit/diff';
import { actorOf, recordAudit, recordChange } from '../audit/record';
import type { Deps } from '../deps';
import { DETAILS, WIALON_LINES } from '../ingest/downlink';
import { COMMAND_PAYLOADS } from '../ingest/native/codec';
import { getOwned } from '../owned/queries';
import { HttpError, notFound } from '../platform/http/errors';
import { IdParam } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import { trackers } from '../schema';
import { visibleClientIds, visibleVehicle } from '../tenancy/scope';
import {
  type CommandRow,
  commandById,
  commandsOf,
  insertCommand,
  setCommandStatus,
  setTrackerFlags,
  trackerProtocol,
  trackersOfVehicle,
} from './queries';

type Ctx = Context<AuthEnv>;
const IntegrationParam = o.object({ integration: v.picklist(INTEGRATIONS, 'Integração inválida') });
const commandDocs = {
  200: {
    description: 'Comando registrado',
    content: { 'application/json': { schema: resolver(CommandSchema) } },
  },
};
const historyDocs = {
  200: {
    description: 'Comandos do veículo, do mais recente ao mais antigo',
    content: { 'application/json': { schema: resolver(CommandListSchema) } },
  },
};
const messageDocs = {
  200: {
    description: 'Feito',
    content: { 'application/json': { schema: resolver(MessageSchema) } },
  },
};

export function toCommand(row: CommandRow): Command {
  return {
    id: row.id,
    kind: row.kind as Command['kind'],
    integration: row.integration,
    status: row.status as Command['status'],
    detail: row.detail,
    vehicleId: row.vehicleId,
    trackerId: row.trackerId,
    userName: row.userName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function visibleTracker(c: Ctx, deps: Deps, id: string) {
  const row = await getOwned(deps.database.db, trackers, id, await visibleClientIds(c, deps));
  if (!row) throw notFound('Rastreador não encontrado');
  return row;
}

export const NO_DOWNLINK: Record<string, string> = {
  osmand:
    'Este rastreador envia posições pelo protocolo OsmAnd (HTTP), que não recebe comandos. Nada foi enviado.',
  flespi:
    'Este rastreador envia posições pelo fluxo do flespi, que não recebe comandos do Rastro. Cadastre-o com o provedor Flespi para enviar comandos. Nada foi enviado.',
};
export const APPLIED_HERE = 'Aplicado no Rastro.';
export const NO_SUCH_COMMAND =
  'Este rastreador não recebe este comando pelo seu protocolo. Nada foi enviado.';
/** A tracker that can never prove it is the real device takes no command. */
export const NO_PASSWORD =
  'Este rastreador não tem senha própria: por segurança, comandos só vão a um aparelho que prova a sua senha. Defina a senha do aparelho no cadastro do rastreador. Nada foi enviado.';

interface Target {
  clientId: string;
  vehicleId: string | null;
  tracker: { id: string; identifier: string; provider: string };
  /** How the audit log names what the command went to: the plate, else the tracker. */
  label: string;
}

/**
 * Stores a command with its audit line, in one transaction. The line's outcome follows the
 * command's state from then on (a trigger on `commands`, migration 0023_audit): the device's
 * answer, a failure, an expiry.
 */
async function insertAudited(
  c: Ctx,
  deps: Deps,
  target: Target,
  values: Parameters<typeof insertCommand>[1],
): Promise<string> {
  return deps.database.db.transaction(async (tx) => {
    const id = await insertCommand(tx, values);
    await recordAudit(tx, {
      ...actorOf(c, deps),
      clientId: values.clientId,
      kind: 'command',
      entity: 'command',
      entityId: id,
      summary: target.label,
      changes: auditChanges(undefined, {
        command: values.kind,
        integration: values.integration,
        vehicleId: values.vehicleId,
        trackerId: values.trackerId,
      }),
      outcome: values.status ?? 'pending',
    });
    return id;
  });
}

/** A command to one of our own trackers: queued for its connection, applied, or refused. */
async function ownTracker(c: Ctx, deps: Deps, target: Target, kind: CommandKind) {
  const { db } = deps.database;
  const base = {
    clientId: target.clientId,
    vehicleId: target.vehicleId,
    trackerId: target.tracker.id,
    kind,
    integration: 'rastro',
    userId: c.var.user.id,
  };
  let id: string;
  if (!WIALON_LINES[kind]) {
    id = await insertAudited(c, deps, target, {
      ...base,
      status: 'confirmed',
      detail: APPLIED_HERE,
    });
  } else {
    const { protocol, passwordSet } = await trackerProtocol(db, target.tracker.id);
    const refusal = protocol ? NO_DOWNLINK[protocol] : undefined;
    if (refusal) throw new HttpError(409, 'CONFLICT', refusal);
    // The makers' protocols carry no password: the device is its IMEI on its bound protocol.
    const native = protocol && protocol in COMMAND_PAYLOADS;
    if (!passwordSet && !native) throw new HttpError(409, 'CONFLICT', NO_PASSWORD);
    const line = native
      ? COMMAND_PAYLOADS[protocol as keyof typeof COMMAND_PAYLOADS][kind]
      : WIALON_LINES[kind];
    if (!line) throw new HttpError(409, 'CONFLICT', NO_SUCH_COMMAND);
    id = await insertAudited(c, deps, target, {
      ...base,
      payload: line,
      detail: DETAILS.waiting,
      expiresAt: new Date(Date.now() + deps.config.commands.expiryMs),
    });
    await deps.downlink.created(target.tracker.id);
  }
  deps.log.info('command', { id, kind, integration: 'rastro', by: c.var.user.id });
  const row = await commandById(db, id);
  if (!row) throw new Error('command vanished');
  return toCommand(row);
}

/** Records the command, sends it, records the outcome; a failure answers with its reason. */
async function dispatch(
  c: Ctx,
  deps: Deps,
  target: Target,
  kind: CommandKind,
  integration: IntegrationName | 'rastro',
) {
  if (integration === 'rastro') return ownTracker(c, deps, target, kind);
  const { db } = deps.database;
  const id = await insertAudited(c, deps, target, {
    clientId: target.clientId,
    vehicleId: target.vehicleId,
    trackerId: target.tracker.id,
    kind,
    integration,
    userId: c.var.user.id,
  });
  if (!deps.integrations.isConfigured(integration)) {
    await setCommandStatus(db, id, 'failed', notConfigured(integration));
    throw new HttpError(503, 'SERVER_ERROR', notConfigured(integration));
  }
  const outcome = await deps.integrations.send(integration, target.tracker.identifier, kind);
  await setCommandStatus(db, id, outcome.status, outcome.detail ?? null);
  deps.log.info('command', { id, kind, integration, status: outcome.status, by: c.var.user.id });
  if (outcome.status === 'failed')
    throw new HttpError(502, 'SERVER_ERROR', outcome.detail ?? 'O comando falhou');
  const row = await commandById(db, id);
  if (!row) throw new Error('command vanished');
  return toCommand(row);
}

export function vehicleCommandRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));

  const vehicleCommand = async (
    c: Ctx,
    vehicleId: string,
    kind: CommandKind,
    fixed?: IntegrationName,
  ) => {
    const vehicle = await visibleVehicle(c, deps, vehicleId);
    const [tracker] = await trackersOfVehicle(deps.database.db, vehicle.id);
    if (!tracker) throw new HttpError(409, 'CONFLICT', 'Veículo sem rastreador habilitado');
    const integration = fixed ?? (tracker.provider as IntegrationName | 'rastro');
    return c.json(
      await dispatch(
        c,
        deps,
        { clientId: vehicle.clientId, vehicleId: vehicle.id, tracker, label: vehicle.plate },
        kind,
        integration,
      ),
    );
  };

  app.get(
    '/',
    describeRoute({
      tags: ['Comandos'],
      summary: 'Histórico de comandos de um veículo',
      responses: historyDocs,
    }),
    requirePermission('read_resources'),
    validate('query', VehicleIdQuerySchema),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('query').vehicleId);
      return c.json({
        commands: (
          await commandsOf(deps.database.db, { vehicleId: vehicle.id }, vehicle.owners)
        ).map(toCommand),
      });
    },
  );
  app.put(
    '/block',
    describeRoute({ tags: ['Comandos'], summary: 'Bloquear veículo', responses: commandDocs }),
    requirePermission('BlockVehicle'),
    validate('query', VehicleIdQuerySchema),
    (c) => vehicleCommand(c, c.req.valid('query').vehicleId, 'block'),
  );
  app.put(
    '/unblock',
    describeRoute({ tags: ['Comandos'], summary: 'Desbloquear veículo', responses: commandDocs }),
    requirePermission('BlockVehicle'),
    validate('query', VehicleIdQuerySchema),
    (c) => vehicleCommand(c, c.req.valid('query').vehicleId, 'unblock'),
  );
  app.put(
    '/:integration/suspend',
    describeRoute({
      tags: ['Comandos'],
      summary: 'Suspender veículo na integração',
      responses: commandDocs,
    }),
    requirePermission('send_commands'),
    validate('param', IntegrationParam),
    validate('query', VehicleIdQuerySchema),
    (c) =>
      vehicleCommand(
        c,
        c.req.valid('query').vehicleId,
        'suspend',
        c.req.valid('param').integration,
      ),
  );
  return app;
}

export function deviceCommandRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('send_commands'));
  const toggle = async (c: Ctx, trackerId: string, enabled: boolean) => {
    const tracker = await visibleTracker(c, deps, trackerId);
    const command = await dispatch(
      c,
      deps,
      {
        clientId: tracker.clientId,
        vehicleId: tracker.vehicleId,
        tracker,
        label: tracker.identifier,
      },
      enabled ? 'enable' : 'disable',
      tracker.provider as IntegrationName | 'rastro',
    );
    await setTrackerFlags(deps.database.db, tracker.id, { enabled });
    return c.json(command);
  };
  app.put(
    '/enableDevice',
    describeRoute({ tags: ['Comandos'], summary: 'Habilitar rastreador', responses: commandDocs }),
    validate('json', TrackerIdBodySchema),
    (c) => toggle(c, c.req.valid('json').trackerId, true),
  );
  app.put(
    '/disableDevice',
    describeRoute({
      tags: ['Comandos'],
      summary: 'Desabilitar rastreador',
      responses: commandDocs,
    }),
    validate('json', TrackerIdBodySchema),
    (c) => toggle(c, c.req.valid('json').trackerId, false),
  );
  return app;
}

export function trackerActivationRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));
  app.put(
    '/activate/:id',
    describeRoute({ tags: ['Rastreadores'], summary: 'Ativar rastreador', responses: messageDocs }),
    requirePermission('CrudProduct'),
    validate('param', IdParam),
    async (c) => {
      const tracker = await visibleTracker(c, deps, c.req.valid('param').id);
      const activatedAt = new Date();
      await deps.database.db.transaction(async (tx) => {
        await setTrackerFlags(tx, tracker.id, { active: true, enabled: true, activatedAt });
        await recordChange(tx, c, deps, {
          entity: 'tracker',
          clientId: tracker.clientId,
          entityId: tracker.id,
          summary: tracker.identifier,
          before: { active: tracker.active, enabled: tracker.enabled },
          after: { active: true, enabled: true },
        });
      });
      return c.json({ message: 'Rastreador ativado.' });
    },
  );
  return app;
}

export function registerRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('CrudProduct'));
  app.put(
    '/getrak/device',
    describeRoute({
      tags: ['Integrações'],
      summary: 'Cadastrar rastreador na Getrak',
      responses: messageDocs,
    }),
    validate('query', o.strictObject({ id: IdSchema })),
    async (c) => {
      const tracker = await visibleTracker(c, deps, c.req.valid('query').id);
      const external = await deps.integrations.registerDevice('getrak', tracker.identifier);
      return c.json({ message: `Rastreador cadastrado na Getrak (${external}).` });
    },
  );
  app.put(
    '/:integration/vehicle',
    describeRoute({
      tags: ['Integrações'],
      summary: 'Cadastrar veículo no provedor',
      responses: messageDocs,
    }),
    validate('param', IntegrationParam),
    validate('query', o.strictObject({ id: IdSchema })),
    async (c) => {
      const vehicle = await visibleVehicle(c, deps, c.req.valid('query').id);
      const { integration } = c.req.valid('param');
      const devices = (await trackersOfVehicle(deps.database.db, vehicle.id)).map(
        (t) => t.identifier,
      );
      const external = await deps.integrations.registerVehicle(integration, vehicle, devices);
      return c.json({ message: `Veículo cadastrado na integração (${external}).` });
    },
  );
  return app;
}
