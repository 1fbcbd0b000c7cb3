/** Commands, images and plate lookup of vehicles and trackers (SPEC §7). */
import * as v from 'valibot';
import {
  CommandListSchema,
  CommandSchema,
  LocationItemSchema,
  MessageSchema,
  PlateRecordSchema,
} from '../contract';
import { api } from './client';

const PlateListSchema = v.array(PlateRecordSchema);

export async function vehicleCommands(vehicleId: string) {
  return v.parse(
    CommandListSchema,
    await api.get('registros/commands', { searchParams: { vehicleId } }).json(),
  ).commands;
}

export async function sendVehicleCommand(kind: 'block' | 'unblock', vehicleId: string) {
  return v.parse(
    CommandSchema,
    await api.put(`registros/commands/${kind}`, { searchParams: { vehicleId } }).json(),
  );
}

export async function setDeviceEnabled(trackerId: string, enabled: boolean) {
  const path = enabled ? 'registro/commands/enableDevice' : 'registro/commands/disableDevice';
  return v.parse(CommandSchema, await api.put(path, { json: { trackerId } }).json());
}

export async function activateTracker(id: string) {
  return v.parse(MessageSchema, await api.put(`registros/tracker/activate/${id}`).json()).message;
}

export async function uploadVehicleImages(vehicleId: string, files: File[]) {
  const body = new FormData();
  for (const file of files) body.append('files', file);
  return v.parse(
    MessageSchema,
    await api
      .post(`registros/upload-images/vehicle/${vehicleId}`, { body, timeout: 120_000 })
      .json(),
  ).message;
}

/** Image bytes need the bearer token, so they come through the client as a blob URL. */
export async function vehicleImageUrl(url: string): Promise<string> {
  return URL.createObjectURL(await api.get(url.replace(/^\//, '')).blob());
}

export async function deleteVehicleImage(url: string) {
  return v.parse(MessageSchema, await api.delete(url.replace(/^\//, '')).json()).message;
}

/**
 * Asked once, at a press of the button: a lookup that is not configured (503) stays so, and
 * one the provider is slow to answer is better pressed again than asked three times.
 */
export async function lookupPlate(plate: string) {
  return v.parse(
    PlateListSchema,
    await api
      .get('registros/eligo/consultarPlaca', { searchParams: { placa: plate }, retry: 0 })
      .json(),
  );
}

/** The last location of one vehicle, if it has reported. */
export async function lastLocationOf(vehicleId: string) {
  const items = v.parse(
    v.array(LocationItemSchema),
    await api
      .get('registros/real-time/lastLocation', { searchParams: { vehicleIds: vehicleId } })
      .json(),
  );
  return items.find((item) => item.id === vehicleId);
}
