/**
 * Tracker provider integrations (Getrak, Trackconnect, Flespi, Wialon): commands to a device
 * and registration of vehicles and devices with the provider. Each has a configured URL and
 * token; without them the integration answers clearly that it is not set up. 'rastro' is our
 * own ingest: its commands wait in the queue until the device next connects.
 *
 * All four speak one JSON shape here (`POST {URL}/commands`, `PUT {URL}/vehicles/{id}`,
 * `PUT {URL}/devices/{identifier}`, bearer token), which a small gateway per provider maps to
 * its real API; Flespi is addressed directly (commands-queue by device ident).
 */
import type { Config } from '../platform/config';
import { HttpError } from '../platform/http/errors';

export const INTEGRATIONS = ['getrak', 'trackconnect', 'flespi', 'wialon'] as const;
export type IntegrationName = (typeof INTEGRATIONS)[number];
export const INTEGRATION_LABELS: Record<IntegrationName | 'rastro', string> = {
  getrak: 'Getrak',
  trackconnect: 'Trackconnect',
  flespi: 'Flespi',
  wialon: 'Wialon',
  rastro: 'Rastro',
};

export type CommandKind = 'block' | 'unblock' | 'suspend' | 'enable' | 'disable';
export interface CommandOutcome {
  status: 'pending' | 'sent' | 'confirmed' | 'failed';
  detail?: string;
}

export interface Integrations {
  isConfigured(name: IntegrationName): boolean;
  send(
    name: IntegrationName | 'rastro',
    device: string,
    kind: CommandKind,
  ): Promise<CommandOutcome>;
  registerVehicle(
    name: IntegrationName,
    vehicle: { id: string; plate: string; name: string },
    devices: string[],
  ): Promise<string>;
  registerDevice(name: IntegrationName, device: string): Promise<string>;
}

export function notConfigured(name: IntegrationName) {
  const upper = name.toUpperCase();
  return `Integração ${INTEGRATION_LABELS[name]} não configurada. Defina ${upper}_URL e ${upper}_TOKEN.`;
}

export function createIntegrations(
  config: Pick<Config, 'integrations' | 'outsideTimeoutMs'>,
): Integrations {
  const settings = (name: IntegrationName) => {
    const { url, token } = config.integrations[name];
    if (!url || !token) throw new HttpError(503, 'SERVER_ERROR', notConfigured(name));
    return { url: url.replace(/\/+$/, ''), token };
  };

  async function call(name: IntegrationName, method: string, path: string, body: unknown) {
    const { url, token } = settings(name);
    const auth = name === 'flespi' ? `FlespiToken ${token}` : `Bearer ${token}`;
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(config.outsideTimeoutMs),
      });
    } catch {
      throw new HttpError(
        502,
        'SERVER_ERROR',
        `${INTEGRATION_LABELS[name]} não respondeu. Tente novamente.`,
      );
    }
    const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const reason = typeof answer.message === 'string' ? `: ${answer.message}` : '';
      throw new HttpError(
        502,
        'SERVER_ERROR',
        `${INTEGRATION_LABELS[name]} recusou a operação (${res.status})${reason}`,
      );
    }
    return answer;
  }

  return {
    isConfigured: (name) =>
      Boolean(config.integrations[name].url && config.integrations[name].token),
    async send(name, device, kind) {
      if (name === 'rastro')
        return { status: 'pending', detail: 'Aguardando a próxima conexão do rastreador.' };
      try {
        const answer =
          name === 'flespi'
            ? await call(
                name,
                'POST',
                `/gw/devices/configuration.ident=${encodeURIComponent(device)}/commands-queue`,
                [{ name: 'custom', properties: { payload: kind } }],
              )
            : await call(name, 'POST', '/commands', { device, command: kind });
        return { status: answer.confirmed === true ? 'confirmed' : 'sent' };
      } catch (err) {
        return { status: 'failed', detail: err instanceof Error ? err.message : String(err) };
      }
    },
    async registerVehicle(name, vehicle, devices) {
      const answer = await call(name, 'PUT', `/vehicles/${vehicle.id}`, {
        plate: vehicle.plate,
        name: vehicle.name,
        devices,
      });
      return typeof answer.id === 'string' ? answer.id : vehicle.id;
    },
    async registerDevice(name, device) {
      const answer = await call(name, 'PUT', `/devices/${encodeURIComponent(device)}`, {
        identifier: device,
      });
      return typeof answer.id === 'string' ? answer.id : device;
    },
  };
}
