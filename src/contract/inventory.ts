/**
 * The fleet inventory (SPEC §3, §7): vehicles, trackers, tracker types, SIM cards, fleets and
 * drivers. Every record but tracker types belongs to a customer (clientId).
 */
import * as v from 'valibot';
import { isValidCpf, isValidIccid, isValidImei, isValidPlate } from '../lib/documents';
import { unmaskDocument, unmaskPhone, unmaskPlate } from '../lib/unmask';
import {
  IdSchema,
  IsoTimestampSchema,
  isoDateSchema,
  OrderSchema,
  QueryBoolSchema,
  queryInt,
  REQUIRED,
  SearchSchema,
} from './common';
import * as o from './objects';
import { VEHICLE_TYPE_IDS } from './vehicle-types';

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const required = (max: number) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(max));
const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));
const yearNow = new Date().getFullYear();
const Year = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(1900, 'Ano inválido'),
  v.maxValue(yearNow + 2, 'Ano inválido'),
);

export const MODEL_YEAR_MESSAGE = 'Ano do modelo deve ser o de fabricação ou o seguinte';
/** In Brazil a vehicle's model year is its manufacture year or the next one. */
export function modelYearFits(year: unknown, modelYear: unknown): boolean {
  if (typeof year !== 'number' || typeof modelYear !== 'number') return true;
  return modelYear === year || modelYear === year + 1;
}

export const CHASSIS_MESSAGE = 'Chassi deve ter 17 letras e números (sem I, O e Q)';
/**
 * A chassis number (VIN, ISO 3779): 17 letters and digits, never I, O or Q. Only 17-character
 * VINs are taken (every one the plate lookup answers has 17); empty is no chassis.
 */
export const CHASSIS_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
const Chassis = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.check((s: string) => s === '' || CHASSIS_PATTERN.test(s), CHASSIS_MESSAGE),
);

export const PlateSchema = v.pipe(
  v.string(),
  v.transform((s: string) => unmaskPlate(s)),
  // An empty plate is a missing one, said as every required field says it.
  v.nonEmpty(REQUIRED),
  // As the field's mask writes it (AAA-9999) and its hint says.
  v.check((s: string) => s === '' || isValidPlate(s), 'Placa inválida: use AAA-9999 ou AAA9A99'),
);
const Phone = v.pipe(
  v.string(),
  v.transform((s: string) => unmaskPhone(s)),
  v.regex(/^(55)?\d{10,11}$/, 'Telefone inválido: use DDD e número'),
);

/** List query shared by every customer-owned resource. */
export function listQuery<const S extends readonly string[]>(sorts: S) {
  return o.strictObject({
    clientId: v.optional(IdSchema),
    search: SearchSchema,
    page: queryInt(1, 1, 100_000),
    limit: queryInt(10, 1, 10_000),
    sort: v.optional(v.picklist(sorts, 'Ordenação inválida'), sorts[0]),
    order: OrderSchema,
    active: v.optional(QueryBoolSchema),
    /** Mirror sync: only what changed after this instant, removed records included. */
    updatedSince: v.optional(IsoTimestampSchema),
    /**
     * Mirror sync keyset: with updatedSince, only rows after (updatedSince, afterId) in the
     * order (updatedAt to the millisecond, id); without it, updatedSince is inclusive.
     */
    afterId: v.optional(IdSchema),
  });
}

export const page = <T extends v.GenericSchema, K extends string>(key: K, item: T) =>
  o.object({ [key]: v.array(item), page: v.number(), limit: v.number(), total: v.number() } as {
    [P in K]: v.ArraySchema<T, undefined>;
  } & {
    page: v.NumberSchema<undefined>;
    limit: v.NumberSchema<undefined>;
    total: v.NumberSchema<undefined>;
  });

export const ownedOut = {
  id: v.string(),
  clientId: v.string(),
  active: v.boolean(),
  createdAt: v.string(),
  updatedAt: v.string(),
  canceledAt: v.nullable(v.string()),
};

// ── Vehicles ──────────────────────────────────────────────────────────────────────────────
const vehicleFields = {
  clientId: IdSchema,
  name: required(80),
  plate: PlateSchema,
  type: v.picklist(VEHICLE_TYPE_IDS, 'Tipo de veículo inválido'),
  brand: v.optional(text(60)),
  model: v.optional(text(60)),
  year: v.optional(Year),
  modelYear: v.optional(Year),
  color: v.optional(text(40)),
  chassis: v.optional(Chassis),
  renavam: v.optional(v.pipe(v.string(), v.regex(/^\d{9,11}$/, 'RENAVAM inválido'))),
  /** The tank's capacity in litres (refuels larger than it are flagged). */
  fuelTankLiters: v.optional(
    v.pipe(
      v.number('Tanque: informe os litros'),
      v.gtValue(0, 'Tanque: deve ser maior que zero'),
      v.maxValue(5000, 'Tanque: até 5.000 L'),
    ),
  ),
  active: v.optional(v.boolean()),
};
// The model year against the manufacture year, said at the model year's field.
export const VehicleCreateSchema = v.pipe(
  o.strictObject(vehicleFields),
  v.forward(
    v.partialCheck(
      [['year'], ['modelYear']],
      (input) => modelYearFits(input.year, input.modelYear),
      MODEL_YEAR_MESSAGE,
    ),
    ['modelYear'],
  ),
);
/**
 * Every field optional, null clearing; when both years come (as the form sends them) they are
 * checked together. A change of one year alone is checked by the route
 * (server/inventory/routes/inventory.ts) against the other as stored.
 */
export const VehicleUpdateSchema = v.pipe(
  o.strictObject({
    ...vehicleFields,
    clientId: v.optional(IdSchema),
    name: v.optional(vehicleFields.name),
    plate: v.optional(PlateSchema),
    type: v.optional(vehicleFields.type),
    brand: clearable(text(60)),
    model: clearable(text(60)),
    year: clearable(Year),
    modelYear: clearable(Year),
    color: clearable(text(40)),
    chassis: clearable(Chassis),
    renavam: clearable(vehicleFields.renavam.wrapped),
    fuelTankLiters: clearable(vehicleFields.fuelTankLiters.wrapped),
  }),
  v.forward(
    v.partialCheck(
      [['year'], ['modelYear']],
      (input) => modelYearFits(input.year, input.modelYear),
      MODEL_YEAR_MESSAGE,
    ),
    ['modelYear'],
  ),
);
export const VEHICLE_SORTS = ['name', 'plate', 'createdAt', 'updatedAt'] as const;
/** SPEC §7: GET registros/vehicle takes clientId, limit, page and vehicleQuery (the search). */
export const VehicleQuerySchema = o.strictObject({
  ...listQuery(VEHICLE_SORTS).entries,
  vehicleQuery: SearchSchema,
});
export const VehicleSchema = o.object({
  ...ownedOut,
  name: v.string(),
  plate: v.string(),
  type: o.object({ id: v.string(), label: v.string() }),
  brand: v.nullable(v.string()),
  model: v.nullable(v.string()),
  year: v.nullable(v.number()),
  modelYear: v.nullable(v.number()),
  /** The spec's spelling of modelYear, kept for compatibility. */
  modelYar: v.nullable(v.number()),
  color: v.nullable(v.string()),
  chassis: v.nullable(v.string()),
  renavam: v.nullable(v.string()),
  /** Absent from older servers' answers and mirrors. */
  fuelTankLiters: v.optional(v.nullable(v.number())),
  images: v.array(
    o.object({ id: v.string(), url: v.string(), contentType: v.string(), size: v.number() }),
  ),
});
export type Vehicle = v.InferOutput<typeof VehicleSchema>;
export const VehiclePageSchema = page('vehicles', VehicleSchema);

/** SPEC §3: vehicle options read 'plate | name'. */
export function vehicleOption(vehicle: { id: string; plate: string; name: string }) {
  return { label: `${vehicle.plate} | ${vehicle.name}`, value: vehicle.id };
}

// ── Drivers ───────────────────────────────────────────────────────────────────────────────
export const LICENSE_CATEGORIES = ['A', 'B', 'C', 'D', 'E', 'AB', 'AC', 'AD', 'AE'] as const;
const driverFields = {
  clientId: IdSchema,
  completName: required(120),
  cpf: v.pipe(
    v.string(),
    v.transform((s: string) => unmaskDocument(s)),
    v.check((s: string) => isValidCpf(s), 'CPF inválido'),
  ),
  rfidCode: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.regex(/^[0-9A-F]{4,32}$/, 'Código RFID inválido: use de 4 a 32 dígitos hexadecimais'),
    ),
  ),
  licenseNumber: v.optional(v.pipe(v.string(), v.regex(/^\d{9,11}$/, 'Número da CNH inválido'))),
  licenseCategory: v.optional(v.picklist(LICENSE_CATEGORIES, 'Categoria da CNH inválida')),
  licenseExpiry: v.optional(isoDateSchema('Validade da CNH inválida: use AAAA-MM-DD')),
  phone: v.optional(Phone),
  active: v.optional(v.boolean()),
};
export const DriverCreateSchema = o.strictObject(driverFields);
export const DriverUpdateSchema = o.strictObject({
  ...driverFields,
  clientId: v.optional(IdSchema),
  completName: v.optional(driverFields.completName),
  cpf: v.optional(driverFields.cpf),
  rfidCode: clearable(driverFields.rfidCode.wrapped),
  licenseNumber: clearable(driverFields.licenseNumber.wrapped),
  licenseCategory: clearable(driverFields.licenseCategory.wrapped),
  licenseExpiry: clearable(driverFields.licenseExpiry.wrapped),
  phone: clearable(Phone),
});
export const DRIVER_SORTS = ['completName', 'createdAt', 'updatedAt'] as const;
/** SPEC §3: drivers are searched by completName, clientId, rfidcode and cpf; active defaults to true. */
export const DriverQuerySchema = o.strictObject({
  ...listQuery(DRIVER_SORTS).entries,
  active: v.optional(QueryBoolSchema, 'true'),
  completName: SearchSchema,
  rfidcode: SearchSchema,
  cpf: SearchSchema,
});
export const DriverSchema = o.object({
  ...ownedOut,
  completName: v.string(),
  cpf: v.string(),
  rfidCode: v.nullable(v.string()),
  licenseNumber: v.nullable(v.string()),
  licenseCategory: v.nullable(v.string()),
  licenseExpiry: v.nullable(v.string()),
  phone: v.nullable(v.string()),
});
export type Driver = v.InferOutput<typeof DriverSchema>;
export const DriverPageSchema = page('drivers', DriverSchema);

// ── SIM cards ─────────────────────────────────────────────────────────────────────────────
const simFields = {
  clientId: IdSchema,
  iccid: v.pipe(
    v.string(),
    v.transform((s: string) => s.replace(/\D/g, '')),
    v.check((s: string) => isValidIccid(s), 'ICCID inválido'),
  ),
  phoneNumber: v.optional(Phone),
  carrier: v.optional(text(40)),
  apn: v.optional(text(100)),
  active: v.optional(v.boolean()),
};
export const SimCardCreateSchema = o.strictObject(simFields);
export const SimCardUpdateSchema = o.strictObject({
  ...simFields,
  clientId: v.optional(IdSchema),
  iccid: v.optional(simFields.iccid),
  phoneNumber: clearable(Phone),
  carrier: clearable(text(40)),
  apn: clearable(text(100)),
});
export const SIM_SORTS = ['iccid', 'carrier', 'createdAt', 'updatedAt'] as const;
export const SimCardQuerySchema = listQuery(SIM_SORTS);
export const SimCardSchema = o.object({
  ...ownedOut,
  iccid: v.string(),
  phoneNumber: v.nullable(v.string()),
  carrier: v.nullable(v.string()),
  apn: v.nullable(v.string()),
});
export type SimCard = v.InferOutput<typeof SimCardSchema>;
export const SimCardPageSchema = page('simcards', SimCardSchema);

// ── Tracker types ─────────────────────────────────────────────────────────────────────────
/** The protocols Rastro's own listeners hear: a tracker speaks exactly one of them. */
export const DEVICE_PROTOCOLS = [
  'osmand',
  'wialon_ips',
  'flespi',
  'gt06',
  'suntech',
  'teltonika',
  'queclink',
] as const;
export type DeviceProtocol = (typeof DEVICE_PROTOCOLS)[number];
export const DEVICE_PROTOCOL_LABELS: Record<DeviceProtocol, string> = {
  osmand: 'OsmAnd (aplicativo de celular)',
  wialon_ips: 'Wialon IPS',
  flespi: 'flespi (fluxo HTTP)',
  gt06: 'GT06 (Concox e compatíveis)',
  suntech: 'Suntech',
  teltonika: 'Teltonika (Codec 8/8E/12)',
  queclink: 'Queclink (@Track)',
};
/**
 * The makers' protocols that carry no device password: the device is known by its IMEI bound
 * to the protocol (server/ingest/identity.ts).
 */
export const IMEI_PROTOCOLS = ['gt06', 'suntech', 'teltonika', 'queclink'] as const;
export type ImeiProtocol = (typeof IMEI_PROTOCOLS)[number];
export const isImeiProtocol = (value: unknown): value is ImeiProtocol =>
  typeof value === 'string' && (IMEI_PROTOCOLS as readonly string[]).includes(value);
export const isDeviceProtocol = (value: unknown): value is DeviceProtocol =>
  typeof value === 'string' && (DEVICE_PROTOCOLS as readonly string[]).includes(value);

export const PROTOCOLS = [...DEVICE_PROTOCOLS, 'getrak', 'trackconnect', 'other'] as const;
const trackerTypeFields = {
  manufacturer: required(60),
  model: required(60),
  protocol: v.picklist(PROTOCOLS, 'Protocolo inválido'),
  inputs: v.optional(v.pipe(v.array(required(40)), v.maxLength(32, 'No máximo 32 entradas'))),
};
export const TrackerTypeCreateSchema = o.strictObject(trackerTypeFields);
export const TrackerTypeUpdateSchema = v.partial(TrackerTypeCreateSchema);
export const TRACKER_TYPE_SORTS = ['manufacturer', 'model', 'createdAt'] as const;
export const TrackerTypeQuerySchema = o.strictObject({
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 1000),
  sort: v.optional(v.picklist(TRACKER_TYPE_SORTS, 'Ordenação inválida'), 'manufacturer'),
  order: OrderSchema,
});
export const TrackerTypeSchema = o.object({
  id: v.string(),
  manufacturer: v.string(),
  model: v.string(),
  protocol: v.string(),
  inputs: v.array(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type TrackerType = v.InferOutput<typeof TrackerTypeSchema>;
export const TrackerTypePageSchema = page('trackerTypes', TrackerTypeSchema);

// ── Trackers ──────────────────────────────────────────────────────────────────────────────
/** What came last from a device: a fix, a report without GPS, a login, a heartbeat, a refusal. */
export const COMMUNICATION_KINDS = [
  'position',
  'telemetry',
  'login',
  'heartbeat',
  'refused',
] as const;
/** Why a device's message was refused, as the tracker's page says it. */
export const REFUSALS = [
  'password',
  'protocol',
  'future',
  'conflict',
  'malformed',
  'jump',
  'inactive',
] as const;
export const TrackerCommunicationSchema = o.object({
  lastSeenAt: v.string(),
  lastAddress: v.nullable(v.string()),
  lastProtocol: v.nullable(v.string()),
  lastKind: v.string(),
  lastRefusal: v.nullable(v.string()),
  lastRefusedAt: v.nullable(v.string()),
  conflicts: v.number(),
  lastConflictAt: v.nullable(v.string()),
  authenticated: v.nullable(v.boolean()),
  duplicateSince: v.nullable(v.string()),
  duplicateAddresses: v.array(v.string()),
  /** The time of its last GPS fix, and since when it reports without one. */
  lastFixAt: v.nullable(v.string()),
  noGpsSince: v.nullable(v.string()),
});
export type TrackerCommunication = v.InferOutput<typeof TrackerCommunicationSchema>;

export const PROVIDERS = ['rastro', 'getrak', 'trackconnect', 'flespi', 'wialon'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const PROVIDER_LABELS: Record<Provider, string> = {
  rastro: 'Rastro (ingestão própria)',
  getrak: 'Getrak',
  trackconnect: 'Trackconnect',
  flespi: 'Flespi',
  wialon: 'Wialon',
};
export const CONFIG_MODES = ['default', 'advanced'] as const;
export const CONFIG_MODE_LABELS = { default: 'Padrão', advanced: 'Avançado' } as const;

/**
 * A device's own password (Wialon IPS `#L#imei;password`, OsmAnd `password=`): printable,
 * without the protocols' separators. Stored only as a hash; the API says whether one is set.
 */
export const DevicePasswordSchema = v.pipe(
  v.string(),
  v.nonEmpty('Campo obrigatório'),
  v.minLength(6, 'Senha curta demais: use ao menos 6 caracteres'),
  v.maxLength(64),
  // Printable ASCII without the protocol's separators: what any tracker's keypad can send.
  v.regex(/^[!-~]+$/, 'Senha inválida: use letras, números e símbolos, sem espaços'),
  // Nor what a URL would need escaped: an installer types it into a phone app's server URL.
  v.check((s: string) => !/[;#|&?/=%+@:]/.test(s), 'Senha inválida: sem ; # | & ? / = % + @ ou :'),
);
/** A device's command password, as Queclink's @Track takes it: 4 to 6 letters or digits. */
export const CommandPasswordSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9]{4,6}$/, 'Senha de comandos inválida: de 4 a 6 letras ou números'),
);
/** The name the password had when only Wialon IPS used it (kept for integrations). */
export const WialonPasswordSchema = DevicePasswordSchema;

const trackerFields = {
  clientId: IdSchema,
  identifier: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Campo obrigatório'),
    v.maxLength(64),
    v.regex(/^[\w.:-]+$/, 'Identificador inválido'),
    // A numeric 15-digit identifier is an IMEI and must pass its check digit.
    v.check((s: string) => !/^\d{15}$/.test(s) || isValidImei(s), 'IMEI inválido'),
  ),
  trackerTypeId: v.optional(IdSchema),
  provider: v.picklist(PROVIDERS, 'Provedor inválido'),
  configMode: v.optional(v.picklist(CONFIG_MODES, 'Modo de configuração inválido')),
  vehicleId: v.optional(IdSchema),
  simCardId: v.optional(IdSchema),
  /** The listener it speaks to; by default its tracker type's, when that is one of ours. */
  protocol: v.optional(v.picklist(DEVICE_PROTOCOLS, 'Protocolo inválido')),
  devicePassword: v.optional(DevicePasswordSchema),
  /** Same as devicePassword (its former name). */
  wialonPassword: v.optional(WialonPasswordSchema),
  /** 'Aceitar sem senha': the device is let in without a password, and takes no command. */
  allowUnauthenticated: v.optional(v.boolean()),
  /**
   * The password the device asks of its commands (Queclink), sent to it as typed: write-only
   * like the device password. Absent or null: the model's default.
   */
  commandPassword: v.optional(CommandPasswordSchema),
  active: v.optional(v.boolean()),
};
export const TrackerCreateSchema = o.strictObject(trackerFields);
export const TrackerUpdateSchema = o.strictObject({
  ...trackerFields,
  clientId: v.optional(IdSchema),
  identifier: v.optional(trackerFields.identifier),
  provider: v.optional(trackerFields.provider),
  trackerTypeId: clearable(IdSchema),
  vehicleId: clearable(IdSchema),
  simCardId: clearable(IdSchema),
  /** null removes the device's own password. */
  devicePassword: clearable(DevicePasswordSchema),
  wialonPassword: clearable(WialonPasswordSchema),
  /** null: back to the model's default. */
  commandPassword: clearable(CommandPasswordSchema),
});
export const TRACKER_SORTS = [
  'identifier',
  'provider',
  'protocol',
  'lastSeenAt',
  'createdAt',
  'updatedAt',
] as const;
export const TrackerQuerySchema = listQuery(TRACKER_SORTS);
export const TrackerSchema = o.object({
  ...ownedOut,
  identifier: v.string(),
  trackerTypeId: v.nullable(v.string()),
  provider: v.picklist(PROVIDERS),
  configMode: v.picklist(CONFIG_MODES),
  vehicleId: v.nullable(v.string()),
  simCardId: v.nullable(v.string()),
  enabled: v.boolean(),
  activatedAt: v.nullable(v.string()),
  protocol: v.optional(v.nullable(v.string())),
  /** Whether the tracker has its own device password (never the password itself). */
  devicePasswordSet: v.optional(v.boolean()),
  /** The same, under its former name. */
  wialonPasswordSet: v.optional(v.boolean()),
  allowUnauthenticated: v.optional(v.boolean()),
  /** Whether a command password was set (never the password itself). */
  commandPasswordSet: v.optional(v.boolean()),
  /** What the device last told us (absent before it ever spoke). */
  communication: v.optional(v.nullable(TrackerCommunicationSchema)),
});
export type Tracker = v.InferOutput<typeof TrackerSchema>;
export const TrackerPageSchema = page('trackers', TrackerSchema);

// ── Fleets ────────────────────────────────────────────────────────────────────────────────
const fleetFields = {
  clientId: IdSchema,
  name: required(80),
  description: v.optional(text(300)),
  vehicleIds: v.optional(v.pipe(v.array(IdSchema), v.maxLength(10_000))),
  active: v.optional(v.boolean()),
};
export const FleetCreateSchema = o.strictObject(fleetFields);
export const FleetUpdateSchema = o.strictObject({
  ...fleetFields,
  clientId: v.optional(IdSchema),
  name: v.optional(fleetFields.name),
  description: clearable(text(300)),
});
export const FLEET_SORTS = ['name', 'createdAt', 'updatedAt'] as const;
export const FleetQuerySchema = listQuery(FLEET_SORTS);
export const FleetSchema = o.object({
  ...ownedOut,
  name: v.string(),
  description: v.nullable(v.string()),
  vehicleIds: v.array(v.string()),
});
export type Fleet = v.InferOutput<typeof FleetSchema>;
export const FleetPageSchema = page('fleets', FleetSchema);

// ── Commands ──────────────────────────────────────────────────────────────────────────────
export const COMMAND_KINDS = ['block', 'unblock', 'suspend', 'enable', 'disable'] as const;
export const COMMAND_LABELS: Record<(typeof COMMAND_KINDS)[number], string> = {
  block: 'Bloquear',
  unblock: 'Desbloquear',
  suspend: 'Suspender',
  enable: 'Habilitar',
  disable: 'Desabilitar',
};
/**
 * A command's state: pending (waiting for the device's connection), sent (on its way, not
 * yet confirmed), confirmed, failed (refused, or no confirmation in time) or expired (the
 * device did not connect in time; nothing was sent).
 */
export const COMMAND_STATUSES = ['pending', 'sent', 'confirmed', 'failed', 'expired'] as const;
export const COMMAND_STATUS_LABELS: Record<(typeof COMMAND_STATUSES)[number], string> = {
  pending: 'Pendente',
  sent: 'Enviado',
  confirmed: 'Confirmado',
  failed: 'Falhou',
  expired: 'Expirado',
};
export const CommandSchema = o.object({
  id: v.string(),
  kind: v.picklist(COMMAND_KINDS),
  integration: v.string(),
  status: v.picklist(COMMAND_STATUSES),
  detail: v.nullable(v.string()),
  vehicleId: v.nullable(v.string()),
  trackerId: v.nullable(v.string()),
  userName: v.nullable(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Command = v.InferOutput<typeof CommandSchema>;
/** GET registros/commands?vehicleId=: the vehicle's commands, newest first. */
export const CommandListSchema = o.object({ commands: v.array(CommandSchema) });
export type CommandList = v.InferOutput<typeof CommandListSchema>;
export const VehicleIdQuerySchema = o.strictObject({ vehicleId: IdSchema });
export const TrackerIdBodySchema = o.strictObject({ trackerId: IdSchema });

/** SPEC §7 plate lookup answer (the Eligo list shape). */
export const PlateRecordSchema = o.object({
  ano_fabricacao_veiculo: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  ano_modelo: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  chassi_veiculo: v.optional(v.nullable(v.string())),
  cor_veiculo: v.optional(v.nullable(v.string())),
  renavam: v.optional(v.nullable(v.string())),
  marca_modelo: v.optional(v.nullable(v.string())),
  placa_veiculo: v.optional(v.nullable(v.string())),
  nome_completo: v.optional(v.nullable(v.string())),
});
export type PlateRecord = v.InferOutput<typeof PlateRecordSchema>;

/** SPEC §3: a plate lookup's result, every field of the provider's record mapped. */
export interface PlateLookupResult {
  /** Manufacture year. */
  year: string;
  modelYear: string;
  chassis: string;
  color: string;
  renavam: string;
  brandModel: string;
  /** The plate as the registry has it, unformatted. */
  plate: string;
  ownerName: string;
}

const plateText = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value).trim();

export function plateLookupResult(record: PlateRecord): PlateLookupResult {
  return {
    year: plateText(record.ano_fabricacao_veiculo),
    modelYear: plateText(record.ano_modelo),
    chassis: plateText(record.chassi_veiculo),
    color: plateText(record.cor_veiculo),
    renavam: plateText(record.renavam),
    brandModel: plateText(record.marca_modelo),
    plate: plateText(record.placa_veiculo).replace(/[\W_]/g, '').toUpperCase(),
    ownerName: plateText(record.nome_completo),
  };
}
