/**
 * Documents with an expiry: a vehicle's (licenciamento/CRLV, IPVA, seguro, tacógrafo,
 * RNTRC/ANTT, others by name) and a driver's (exame toxicológico, courses such as MOPP, others
 * by name). A driver's CNH is the driver's own licenseExpiry, listed with them.
 */
import * as v from 'valibot';
import { IdSchema, isoDateSchema, queryInt } from './common';
import { listQuery, ownedOut, page } from './inventory';
import { DATE_MESSAGE } from './maintenance';
import * as o from './objects';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

export const VEHICLE_DOCUMENT_KINDS = [
  'crlv',
  'ipva',
  'insurance',
  'tachograph',
  'rntrc',
  'other',
] as const;
export const DRIVER_DOCUMENT_KINDS = ['toxicological', 'course', 'other'] as const;
export const DOCUMENT_KINDS = [
  'crlv',
  'ipva',
  'insurance',
  'tachograph',
  'rntrc',
  'toxicological',
  'course',
  'other',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** What the expiring list also shows: the CNH of each driver. */
export type ExpiringKind = DocumentKind | 'cnh';

export const DOCUMENT_KIND_LABELS: Record<ExpiringKind, string> = {
  crlv: 'Licenciamento (CRLV)',
  ipva: 'IPVA',
  insurance: 'Seguro',
  tachograph: 'Aferição do tacógrafo',
  rntrc: 'RNTRC/ANTT',
  toxicological: 'Exame toxicológico',
  course: 'Curso (MOPP e outros)',
  other: 'Outro',
  cnh: 'CNH',
};

export const DOCUMENT_OWNER_MESSAGE = 'Escolha um veículo ou um motorista (só um dos dois)';
export const DOCUMENT_NAME_MESSAGE = 'Informe o nome do curso ou do documento';
export const DOCUMENT_KIND_MESSAGE = 'Este tipo de documento não é deste dono';

const fields = {
  clientId: IdSchema,
  vehicleId: v.optional(IdSchema),
  driverId: v.optional(IdSchema),
  kind: v.picklist(DOCUMENT_KINDS, 'Tipo de documento inválido'),
  name: v.optional(text(120)),
  number: v.optional(text(60)),
  expiry: isoDateSchema(DATE_MESSAGE),
  notes: v.optional(text(1000)),
  active: v.optional(v.boolean()),
};
const kindFits = (kind: string, vehicle: unknown) =>
  (vehicle
    ? (VEHICLE_DOCUMENT_KINDS as readonly string[])
    : (DRIVER_DOCUMENT_KINDS as readonly string[])
  ).includes(kind);
const named = (kind: string, name: unknown) =>
  !(kind === 'course' || kind === 'other') || (typeof name === 'string' && name !== '');

export const DocumentCreateSchema = v.pipe(
  o.strictObject(fields),
  v.forward(
    v.partialCheck(
      [['vehicleId'], ['driverId']],
      (d) => Boolean(d.vehicleId) !== Boolean(d.driverId),
      DOCUMENT_OWNER_MESSAGE,
    ),
    ['vehicleId'],
  ),
  v.forward(
    v.partialCheck(
      [['kind'], ['vehicleId']],
      (d) => kindFits(d.kind, d.vehicleId),
      DOCUMENT_KIND_MESSAGE,
    ),
    ['kind'],
  ),
  v.forward(
    v.partialCheck([['kind'], ['name']], (d) => named(d.kind, d.name), DOCUMENT_NAME_MESSAGE),
    ['name'],
  ),
);
/** Every field optional, null clearing; the route checks the result as a whole. */
export const DocumentUpdateSchema = o.strictObject({
  ...fields,
  clientId: v.optional(IdSchema),
  vehicleId: clearable(IdSchema),
  driverId: clearable(IdSchema),
  kind: v.optional(fields.kind),
  name: clearable(text(120)),
  number: clearable(text(60)),
  expiry: v.optional(fields.expiry),
  notes: clearable(text(1000)),
});
/** Whether a document, as it will be stored, fits its owner and is named where it must. */
export function documentProblem(d: {
  vehicleId: string | null | undefined;
  driverId: string | null | undefined;
  kind: string;
  name: string | null | undefined;
}): { path: string; message: string } | undefined {
  if (Boolean(d.vehicleId) === Boolean(d.driverId))
    return { path: 'vehicleId', message: DOCUMENT_OWNER_MESSAGE };
  if (!kindFits(d.kind, d.vehicleId)) return { path: 'kind', message: DOCUMENT_KIND_MESSAGE };
  if (!named(d.kind, d.name)) return { path: 'name', message: DOCUMENT_NAME_MESSAGE };
  return undefined;
}

export const DOCUMENT_SORTS = ['expiry', 'kind', 'createdAt', 'updatedAt'] as const;
export const DocumentQuerySchema = listQuery(DOCUMENT_SORTS);
export const DocumentSchema = o.object({
  ...ownedOut,
  vehicleId: v.nullable(v.string()),
  driverId: v.nullable(v.string()),
  kind: v.picklist(DOCUMENT_KINDS),
  name: v.nullable(v.string()),
  number: v.nullable(v.string()),
  expiry: v.string(),
  notes: v.nullable(v.string()),
});
export type DocumentRecord = v.InferOutput<typeof DocumentSchema>;
export const DocumentPageSchema = page('documents', DocumentSchema);
export type DocumentPage = v.InferOutput<typeof DocumentPageSchema>;

// ── What expires ──────────────────────────────────────────────────────────────────────────
export const EXPIRING_WINDOWS = [30, 60, 90] as const;
export const ExpiringQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  /** Days ahead (São Paulo calendar days); what already expired is always listed. */
  days: queryInt(30, 1, 3650),
});
export const ExpiringItemSchema = o.object({
  /** The document's id, or 'cnh:<driver id>' for a driver's CNH. */
  id: v.string(),
  kind: v.picklist([...DOCUMENT_KINDS, 'cnh']),
  label: v.string(),
  name: v.nullable(v.string()),
  number: v.nullable(v.string()),
  expiry: v.string(),
  /** Negative: expired that many days ago; 0: its last valid day is today. */
  daysLeft: v.number(),
  vehicleId: v.nullable(v.string()),
  plate: v.nullable(v.string()),
  driverId: v.nullable(v.string()),
  driverName: v.nullable(v.string()),
});
export type ExpiringItem = v.InferOutput<typeof ExpiringItemSchema>;
export const ExpiringListSchema = o.object({ items: v.array(ExpiringItemSchema) });
export type ExpiringList = v.InferOutput<typeof ExpiringListSchema>;
