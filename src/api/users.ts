/** User calls of SPEC §7, parsed with the contract. */
import * as v from 'valibot';
import {
  MessageSchema,
  type UserCreate,
  UserPageSchema,
  UserSchema,
  type UserUpdate,
} from '../contract';
import * as o from '../contract/objects';
import { removeEmptyProperties } from '../lib/clean';
import { api } from './client';

export interface UserListParams {
  clientId: string;
  search?: string;
  role?: string;
  page?: number;
  limit?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export async function listUsers(params: UserListParams) {
  const searchParams = removeEmptyProperties({ ...params }) as Record<string, string | number>;
  return v.parse(UserPageSchema, await api.get('registros/user', { searchParams }).json());
}

export async function getUser(id: string) {
  return v.parse(UserSchema, await api.get(`registros/user/${id}`).json());
}

export async function createUser(body: UserCreate) {
  return v.parse(
    UserSchema,
    await api.post('registros/user', { json: removeEmptyProperties(body) }).json(),
  );
}

export async function updateUser(id: string, body: UserUpdate) {
  return v.parse(UserSchema, await api.patch(`registros/user/${id}`, { json: body }).json());
}

export async function deleteUser(id: string) {
  return v.parse(MessageSchema, await api.delete(`registros/user/${id}`).json());
}

const SharedVehiclesSchema = v.array(
  o.object({
    id: v.string(),
    name: v.string(),
    plate: v.string(),
    type: o.object({ id: v.string(), label: v.string() }),
  }),
);

/** Vehicles a Terceiro (VISITOR) sees. */
export async function visitorVehicles(userId: string) {
  return v.parse(
    SharedVehiclesSchema,
    await api.get(`registros/visitor-role/get-vehiculos-by-visitor/${userId}`).json(),
  );
}

export async function addVisitorVehicle(userId: string, vehicleId: string) {
  return v.parse(
    MessageSchema,
    await api
      .post(`registros/visitor-role/add-vehicle/${userId}`, { json: { vehicle: vehicleId } })
      .json(),
  );
}

export async function removeVisitorVehicle(userId: string, vehicleId: string) {
  return v.parse(
    MessageSchema,
    await api.delete(`registros/visitor-role/${userId}/vehicles/${vehicleId}`).json(),
  );
}
