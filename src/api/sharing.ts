/** Temporary shared links and the public view they open (SPEC §7 temporaryUser). */
import * as v from 'valibot';
import {
  MessageSchema,
  SharedLocationsSchema,
  TempAccessViewSchema,
  TemporaryUserSchema,
} from '../contract';
import { api } from './client';

export async function listTemporaryLinks() {
  return v.parse(
    v.array(TemporaryUserSchema),
    await api.get('registros/temporaryUser/linkedTemporaryUsers').json(),
  );
}

export async function createTemporaryLink(body: {
  name: string;
  vehicleIds: string[];
  expiresInHours: number;
}) {
  return v.parse(
    TemporaryUserSchema,
    await api.post('registros/temporaryUser/create_temporary_link', { json: body }).json(),
  );
}

export async function revokeTemporaryLink(id: string) {
  return v.parse(MessageSchema, await api.delete(`registros/temporaryUser/${id}`).json()).message;
}

/** The public view; no session needed (the link's token is the credential). */
export async function openSharedLink(token: string) {
  return v.parse(
    TempAccessViewSchema,
    await api
      .get(`registros/temp-access/${encodeURIComponent(token)}`, { headers: { Authorization: '' } })
      .json(),
  );
}

/** The public map of a link: its vehicles and their last positions (no session needed). */
export async function openSharedLocations(token: string) {
  return v.parse(
    SharedLocationsSchema,
    await api
      .get(`registros/temp-access/${encodeURIComponent(token)}/locations`, {
        headers: { Authorization: '' },
      })
      .json(),
  );
}
