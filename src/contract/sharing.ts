/** Visitors' vehicles and temporary shared links (SPEC §7 visitor-role and temporaryUser). */
import * as v from 'valibot';
import { IdSchema } from './common';
import * as o from './objects';

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(80));
const Hours = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(1, 'No mínimo 1 hora'),
  v.maxValue(24 * 90, 'No máximo 90 dias'),
);
const VehicleIds = v.pipe(
  v.array(IdSchema),
  v.minLength(1, 'Escolha pelo menos um veículo'),
  v.maxLength(500),
);

export const VisitorAddVehicleSchema = o.strictObject({ vehicle: IdSchema });

export const TemporaryLinkCreateSchema = o.strictObject({
  name: Name,
  vehicleIds: VehicleIds,
  /** How long the link works, from now. */
  expiresInHours: v.optional(Hours, 24),
});
export const TemporaryUserUpdateSchema = o.strictObject({
  name: v.optional(Name),
  expiresInHours: v.optional(Hours),
});
export const TemporaryAddVehicleSchema = o.strictObject({ vehicleId: IdSchema });
export const TemporaryVehiclesSchema = o.strictObject({ vehicleIds: VehicleIds });

export const LINK_STATES = ['active', 'expired', 'revoked'] as const;
export const LINK_STATE_LABELS: Record<(typeof LINK_STATES)[number], string> = {
  active: 'Ativo',
  expired: 'Expirado',
  revoked: 'Revogado',
};

export const TemporaryUserSchema = o.object({
  id: v.string(),
  clientId: v.string(),
  name: v.string(),
  token: v.string(),
  link: v.string(),
  vehicleIds: v.array(v.string()),
  /** In the list of links: the plates of its vehicles still in the fleet, in order. */
  plates: v.optional(v.array(v.string())),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
  state: v.picklist(LINK_STATES),
  createdAt: v.string(),
});
export type TemporaryUser = v.InferOutput<typeof TemporaryUserSchema>;

export const SharedVehicleSchema = o.object({
  id: v.string(),
  name: v.string(),
  plate: v.string(),
  type: o.object({ id: v.string(), label: v.string() }),
});
export const TempAccessViewSchema = o.object({
  name: v.string(),
  expiresAt: v.string(),
  vehicles: v.array(SharedVehicleSchema),
});
export type TempAccessView = v.InferOutput<typeof TempAccessViewSchema>;

export const LINK_GONE = 'Este link expirou ou foi revogado.';
/** A token no link has (never made, or cut short when it was pasted). */
export const LINK_UNKNOWN = 'Link inválido: confira se ele foi copiado inteiro.';
