/**
 * Geofences (SPEC §7 `registros/geofence`) and their vehicle associations. The mirror
 * (src/db/geofences.ts) syncs with `updatedSince`, whose answer also lists every live id.
 */
import * as v from 'valibot';
import {
  type Association,
  AssociationSchema,
  type Geofence,
  GeofencePageSchema,
  GeofenceSchema,
  MessageSchema,
} from '../contract';
import { api } from './client';

const AssociationListSchema = v.array(AssociationSchema);

export async function changedGeofences(clientId: string, updatedSince: string) {
  return v.parse(
    GeofencePageSchema,
    await api
      .get('registros/geofence', {
        searchParams: { clientId, updatedSince, limit: 10_000 },
        timeout: 60_000,
      })
      .json(),
  );
}

export async function createGeofence(body: object): Promise<Geofence> {
  return v.parse(GeofenceSchema, await api.post('registros/geofence', { json: body }).json());
}

export async function updateGeofence(id: string, body: object): Promise<Geofence> {
  return v.parse(
    GeofenceSchema,
    await api.patch(`registros/geofence/${id}`, { json: body }).json(),
  );
}

export async function removeGeofence(id: string): Promise<string> {
  return v.parse(MessageSchema, await api.delete(`registros/geofence/${id}`).json()).message;
}

export async function associationsOf(geofenceId: string): Promise<Association[]> {
  return v.parse(
    AssociationListSchema,
    await api
      .get('registros/geofence/vehicle-association', { searchParams: { geofenceId } })
      .json(),
  );
}

export async function associate(body: object): Promise<Association[]> {
  return v.parse(
    AssociationListSchema,
    await api.post('registros/geofence/vehicle-association', { json: body }).json(),
  );
}

export async function dissociate(id: string): Promise<string> {
  return v.parse(
    MessageSchema,
    await api.delete(`registros/geofence/vehicle-association/${id}`).json(),
  ).message;
}
