/** Where devices send (the tracker form's setup panel) and the unknown devices' list. */
import * as v from 'valibot';
import { DeviceSettingsSchema, MessageSchema, UnknownDevicePageSchema } from '../contract';
import { api } from './client';

export async function deviceSettings() {
  return v.parse(DeviceSettingsSchema, await api.get('registros/device-settings').json());
}

export async function listUnknownDevices(params: { search: string; page: number; limit: number }) {
  return v.parse(
    UnknownDevicePageSchema,
    await api
      .get('registros/unknown-devices', {
        searchParams: { search: params.search, page: params.page, limit: params.limit },
      })
      .json(),
  );
}

export async function forgetUnknownDevice(protocol: string, identifier: string) {
  const path = `registros/unknown-devices/${encodeURIComponent(protocol)}/${encodeURIComponent(identifier)}`;
  return v.parse(MessageSchema, await api.delete(path).json()).message;
}
