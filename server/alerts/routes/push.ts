/**
 * SPEC §7: PUT registros/push/subscribe-token and unsubscribe-token {token}; and, for push on this device,
 * the public push configuration (`GET registros/push/config`: which way this server pushes,
 * the key the browser subscribes with, the Firebase web config) and the caller's devices
 * with the alert types each receives (`GET registros/push/devices`, `PATCH
 * registros/push/devices/{id}`, where id is the SHA-256 of the device's token, base64url).
 *
 * A token is an FCM registration token, or a Web Push subscription's JSON (told apart by its
 * shape); the kind is stored with it.
 */
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  MessageSchema,
  type PushConfig,
  PushConfigSchema,
  PushDeviceSchema,
  PushDeviceUpdateSchema,
  PushTokenRequestSchema,
} from '../../../src/contract';
import { type AuthEnv, requireAuth } from '../../accounts/auth/middleware';
import type { Deps } from '../../deps';
import { badRequest, notFound } from '../../platform/http/errors';
import { validate } from '../../platform/http/validate';
import { checkResolved, ENDPOINT_NOT_ALLOWED, endpointProblem } from '../../push/endpoint';
import { parseSubscription } from '../../push/webpush';
import {
  type PushKind,
  pushDevicesOf,
  setDeviceAlertTypes,
  subscribePushToken,
  unsubscribePushToken,
} from '../queries/push';

const ok = {
  200: {
    description: 'Feito',
    content: { 'application/json': { schema: resolver(MessageSchema) } },
  },
};

export function publicPushConfig(deps: Deps): PushConfig {
  const firebase = deps.config.push.firebase;
  return firebase
    ? { provider: 'fcm', vapidKey: firebase.vapidKey, firebase: firebase.web }
    : { provider: 'webpush', vapidKey: deps.push.vapidPublicKey, firebase: null };
}

/**
 * 'webpush' for a subscription's JSON (checked: its endpoint on a known push service, at
 * public addresses), 'fcm' for anything else.
 */
async function kindOf(deps: Deps, token: string): Promise<PushKind> {
  if (!token.trimStart().startsWith('{')) return 'fcm';
  const subscription = parseSubscription(token);
  if (!subscription) throw badRequest('Inscrição de notificações inválida');
  const policy = {
    hosts: deps.config.push.endpointHosts,
    insecure: deps.config.push.insecureEndpoints,
  };
  const problem = endpointProblem(subscription.endpoint, policy);
  if (problem) throw badRequest(problem);
  if (!(await checkResolved(subscription.endpoint, policy))) throw badRequest(ENDPOINT_NOT_ALLOWED);
  return 'webpush';
}

export function pushRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();

  app.get(
    '/config',
    describeRoute({
      tags: ['Push'],
      summary: 'Configuração pública de notificações (chave VAPID, Firebase)',
      responses: {
        200: {
          description: 'Configuração',
          content: { 'application/json': { schema: resolver(PushConfigSchema) } },
        },
      },
    }),
    (c) => c.json(publicPushConfig(deps)),
  );

  app.use(requireAuth(deps));

  app.put(
    '/subscribe-token',
    describeRoute({
      tags: ['Push'],
      summary: 'Registrar o token de notificações deste navegador',
      responses: ok,
    }),
    validate('json', PushTokenRequestSchema),
    async (c) => {
      const { token } = c.req.valid('json');
      await subscribePushToken(db, c.var.user.id, token, await kindOf(deps, token));
      return c.json({ message: 'Notificações ativadas neste dispositivo.' });
    },
  );

  app.put(
    '/unsubscribe-token',
    describeRoute({
      tags: ['Push'],
      summary: 'Remover o token de notificações deste navegador',
      responses: ok,
    }),
    validate('json', PushTokenRequestSchema),
    async (c) => {
      await unsubscribePushToken(db, c.var.user.id, c.req.valid('json').token);
      return c.json({ message: 'Notificações desativadas neste dispositivo.' });
    },
  );

  app.get(
    '/devices',
    describeRoute({
      tags: ['Push'],
      summary: 'Dispositivos que recebem as notificações do usuário',
      responses: {
        200: {
          description: 'Dispositivos',
          content: { 'application/json': { schema: resolver(v.array(PushDeviceSchema)) } },
        },
      },
    }),
    async (c) => {
      const devices = await pushDevicesOf(db, c.var.user.id);
      return c.json(devices.map(({ token: _, ...device }) => device));
    },
  );

  app.patch(
    '/devices/:id',
    describeRoute({
      tags: ['Push'],
      summary: 'Escolher os tipos de alerta que chegam a um dispositivo',
      responses: {
        200: {
          description: 'Dispositivo',
          content: { 'application/json': { schema: resolver(PushDeviceSchema) } },
        },
      },
    }),
    validate('json', PushDeviceUpdateSchema),
    async (c) => {
      const devices = await pushDevicesOf(db, c.var.user.id);
      const device = devices.find((d) => d.id === c.req.param('id'));
      if (!device) throw notFound('Dispositivo não encontrado');
      const { alertTypes } = c.req.valid('json');
      const chosen = alertTypes ? [...new Set(alertTypes)] : null;
      await setDeviceAlertTypes(db, device.token, chosen);
      const { token: _, ...rest } = device;
      return c.json({ ...rest, alertTypes: chosen, updatedAt: new Date().toISOString() });
    },
  );
  return app;
}

/**
 * `/push-config.js`, imported by the worker at its start (importScripts): the Firebase web
 * config when Firebase is configured, so that messaging starts at the worker's top level.
 */
export function workerPushConfigScript(deps: Deps): string {
  return `self.RASTRO_PUSH=${JSON.stringify(publicPushConfig(deps))};\n`;
}
