/**
 * Push calls (SPEC §7 `registros/push/*`): the public push configuration, unregistering this
 * browser's token (registering is `subscribePushToken` in auth.ts), and the user's devices with the alert types each
 * receives. Errors of the registration are the caller's to log (SPEC §8: push errors are only
 * logged).
 */
import * as v from 'valibot';
import {
  type AlertType,
  deviceIdFromDigest,
  PushConfigSchema,
  PushDeviceSchema,
} from '../contract';
import { api } from './client';

export async function getPushConfig() {
  return v.parse(PushConfigSchema, await api.get('registros/push/config').json());
}

export async function unsubscribeToken(token: string) {
  await api.put('registros/push/unsubscribe-token', { json: { token } });
}

export async function listPushDevices() {
  return v.parse(v.array(PushDeviceSchema), await api.get('registros/push/devices').json());
}

export async function setPushDeviceTypes(deviceId: string, alertTypes: AlertType[] | null) {
  return v.parse(
    PushDeviceSchema,
    await api.patch(`registros/push/devices/${deviceId}`, { json: { alertTypes } }).json(),
  );
}

/** This browser's device id: the SHA-256 of its token, as the server computes it. */
export async function deviceIdOf(token: string): Promise<string> {
  return deviceIdFromDigest(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
}
