/** Users (SPEC §3 "User", §7 "Users"): who signs in, at which level, for which customer. */
import * as v from 'valibot';
import {
  EmailSchema,
  IdSchema,
  OrderSchema,
  QueryBoolSchema,
  queryInt,
  SearchSchema,
} from './common';
import * as o from './objects';
import { ROLES, RoleSchema } from './roles';

/** SPEC §5: listing users or vehicles needs a selected customer. */
export const SELECT_CLIENT_TITLE = 'Selecione um cliente!';
export const SELECT_CLIENT_MESSAGE = 'Cliente não informado';

const name = v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(120));
/** Status as the spec has it (1 active, 0 inactive); booleans are accepted too. */
export const StatusSchema = v.pipe(
  v.union([v.picklist([0, 1]), v.boolean()], 'Status inválido: use 1 (ativo) ou 0 (inativo)'),
  v.transform((value) => value === 1 || value === true),
);

export const UserCreateSchema = o.strictObject({
  name,
  email: EmailSchema,
  role: RoleSchema,
  clientId: IdSchema,
  active: v.optional(StatusSchema),
});
export type UserCreate = v.InferInput<typeof UserCreateSchema>;

export const UserUpdateSchema = o.strictObject({
  name: v.optional(name),
  email: v.optional(EmailSchema),
  role: v.optional(RoleSchema),
  clientId: v.optional(IdSchema),
  active: v.optional(StatusSchema),
  /** Needed when users change their own e-mail: a stolen session alone cannot move the account. */
  currentPassword: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export type UserUpdate = v.InferInput<typeof UserUpdateSchema>;

export const USER_SORTS = ['name', 'email', 'role', 'createdAt', 'updatedAt'] as const;

export const UserQuerySchema = o.strictObject({
  clientId: v.optional(v.string()),
  search: SearchSchema,
  role: v.optional(v.picklist(ROLES, 'Nível de acesso inválido')),
  active: v.optional(QueryBoolSchema),
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 1000),
  sort: v.optional(v.picklist(USER_SORTS, 'Ordenação inválida'), 'name'),
  order: OrderSchema,
});

export const UserSchema = o.object({
  id: v.string(),
  sub: v.string(),
  clientId: v.string(),
  companyId: v.string(),
  clientName: v.string(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
  active: v.picklist([0, 1]),
  passwordSet: v.boolean(),
  createdAt: v.string(),
  updatedAt: v.string(),
  canceledAt: v.nullable(v.string()),
});
export type User = v.InferOutput<typeof UserSchema>;

export const UserPageSchema = o.object({
  users: v.array(UserSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
