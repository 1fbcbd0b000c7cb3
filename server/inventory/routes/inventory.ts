/**
 * The customer-owned inventory of SPEC §7: vehicles, drivers, SIM cards, trackers and fleets,
 * each declared once on top of ownedRoutes.
 */
import type * as v from 'valibot';
import {
  DriverCreateSchema,
  DriverPageSchema,
  DriverQuerySchema,
  DriverUpdateSchema,
  FleetCreateSchema,
  FleetPageSchema,
  FleetQuerySchema,
  FleetUpdateSchema,
  isDeviceProtocol,
  MODEL_YEAR_MESSAGE,
  modelYearFits,
  SimCardCreateSchema,
  SimCardPageSchema,
  SimCardQuerySchema,
  SimCardUpdateSchema,
  type TrackerCommunication,
  TrackerCreateSchema,
  TrackerPageSchema,
  TrackerQuerySchema,
  TrackerUpdateSchema,
  VEHICLE_TYPE_LABELS,
  VehicleCreateSchema,
  VehiclePageSchema,
  VehicleQuerySchema,
  type VehicleTypeId,
  VehicleUpdateSchema,
} from '../../../src/contract';
import type { Deps } from '../../deps';
import { hashDevicePassword } from '../../ingest/identity';
import { type CommunicationRow, communicationOf } from '../../ingest/queries/device-status';
import { type Ctx, iso, owned, ownedRoutes, present } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { badRequest, HttpError, notFound } from '../../platform/http/errors';
import { invalid } from '../../platform/http/validate';
import { linkedVehicleIds } from '../../sharing/queries';
import { visibleClientIds } from '../../tenancy/scope';
import {
  driverQueries,
  fleetQueries,
  imagesOf,
  liveTrackersUsing,
  simCardQueries,
  trackerQueries,
  trackerTypeExists,
  trackerTypeProtocol,
  vehicleQueries,
  vehiclesOfClient,
} from '../queries/inventory';
import { simCards, vehicles } from '../schema';

export const VEHICLE_MOVE_LINKED =
  'Este veículo tem rastreador vinculado. Desvincule o rastreador antes de mudar o cliente do veículo.';
export const TRACKER_MOVE_LINKED =
  'Este rastreador está vinculado a um veículo. Desvincule o veículo (ou escolha um do novo cliente) antes de mudar o cliente.';
export const FLEET_MOVE_VEHICLES =
  'Esta frota tem veículos do cliente atual. Escolha os veículos do novo cliente (ou nenhum) ao mudar o cliente.';
export const TRACKER_MOVE_SIM =
  'Este rastreador tem um chip instalado. Retire o chip (ou escolha um do novo cliente) antes de mudar o cliente.';
export const SIM_MOVE_LINKED =
  'Este chip está instalado em um rastreador. Retire-o antes de mudar o cliente do chip.';

export function vehicleRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Veículos',
    audit: { entity: 'vehicle', label: (row) => row.plate },
    listKey: 'vehicles',
    notFound: 'Veículo não encontrado',
    duplicate: 'Já existe um veículo com esta placa',
    requireClient: true,
    visitorIds: (c) => linkedVehicleIds(deps.database.db, c.var.user.id),
    schemas: {
      create: VehicleCreateSchema,
      update: VehicleUpdateSchema,
      query: VehicleQuerySchema,
      output: VehiclePageSchema,
    },
    ...vehicleQueries,
    toValues: (input) =>
      present(input as v.InferOutput<typeof VehicleUpdateSchema>, [
        'clientId',
        'name',
        'plate',
        'type',
        'brand',
        'model',
        'year',
        'modelYear',
        'color',
        'chassis',
        'renavam',
        'fuelTankLiters',
        'active',
      ]),
    async toOutput(d: Deps, rows) {
      const images = await imagesOf(
        d.database.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => ({
        ...owned(row),
        name: row.name,
        plate: row.plate,
        type: { id: row.type, label: VEHICLE_TYPE_LABELS[row.type as VehicleTypeId] ?? row.type },
        brand: row.brand,
        model: row.model,
        year: row.year,
        modelYear: row.modelYear,
        modelYar: row.modelYear,
        color: row.color,
        chassis: row.chassis,
        renavam: row.renavam,
        fuelTankLiters: row.fuelTankLiters,
        images: images
          .filter((image) => image.vehicleId === row.id)
          .map((image) => ({
            id: image.id,
            url: `/registros/vehicle-images/${image.id}`,
            contentType: image.contentType,
            size: image.size,
          })),
      }));
    },
    async checkRefs(_c, input, clientId, existing) {
      if (!existing) return;
      // One year changed alone is checked against the other as stored (the schema checks
      // them together only when both come). A change that sends no year is not: a vehicle
      // stored before the rule can still be renamed or made inactive.
      const years = input as { year?: number | null; modelYear?: number | null };
      if (years.year !== undefined || years.modelYear !== undefined) {
        const year = years.year === undefined ? existing.year : years.year;
        const modelYear = years.modelYear === undefined ? existing.modelYear : years.modelYear;
        if (!modelYearFits(year, modelYear)) throw invalid('modelYear', MODEL_YEAR_MESSAGE);
      }
      // A vehicle moves to another customer alone: its tracker would stay with the old one.
      if (clientId !== existing.clientId) {
        if ((await liveTrackersUsing(deps.database.db, 'vehicleId', existing.id)) > 0)
          throw new HttpError(409, 'CONFLICT', VEHICLE_MOVE_LINKED);
      }
    },
    async beforeRemove(_c, row) {
      if ((await liveTrackersUsing(deps.database.db, 'vehicleId', row.id)) > 0) {
        throw new HttpError(
          409,
          'CONFLICT',
          'Este veículo tem rastreador vinculado. Desvincule o rastreador antes de remover.',
        );
      }
    },
  });
}

export function driverRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Motoristas',
    audit: { entity: 'driver', label: (row) => row.completName },
    listKey: 'drivers',
    notFound: 'Motorista não encontrado',
    duplicate: 'Já existe um motorista com este CPF ou código RFID',
    schemas: {
      create: DriverCreateSchema,
      update: DriverUpdateSchema,
      query: DriverQuerySchema,
      output: DriverPageSchema,
    },
    ...driverQueries,
    toValues: (input) =>
      present(input as v.InferOutput<typeof DriverUpdateSchema>, [
        'clientId',
        'completName',
        'cpf',
        'rfidCode',
        'licenseNumber',
        'licenseCategory',
        'licenseExpiry',
        'phone',
        'active',
      ]),
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        ...owned(row),
        completName: row.completName,
        cpf: row.cpf,
        rfidCode: row.rfidCode,
        licenseNumber: row.licenseNumber,
        licenseCategory: row.licenseCategory,
        licenseExpiry: row.licenseExpiry,
        phone: row.phone,
      })),
  });
}

export function simCardRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Chips (SIM)',
    audit: { entity: 'sim', label: (row) => row.iccid },
    listKey: 'simcards',
    notFound: 'Chip não encontrado',
    duplicate: 'Já existe um chip com este ICCID',
    schemas: {
      create: SimCardCreateSchema,
      update: SimCardUpdateSchema,
      query: SimCardQuerySchema,
      output: SimCardPageSchema,
    },
    ...simCardQueries,
    toValues: (input) =>
      present(input as v.InferOutput<typeof SimCardUpdateSchema>, [
        'clientId',
        'iccid',
        'phoneNumber',
        'carrier',
        'apn',
        'active',
      ]),
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        ...owned(row),
        iccid: row.iccid,
        phoneNumber: row.phoneNumber,
        carrier: row.carrier,
        apn: row.apn,
      })),
    async checkRefs(_c, _input, clientId, existing) {
      if (existing && clientId !== existing.clientId) {
        if ((await liveTrackersUsing(deps.database.db, 'simCardId', existing.id)) > 0)
          throw new HttpError(409, 'CONFLICT', SIM_MOVE_LINKED);
      }
    },
    async beforeRemove(_c, row) {
      if ((await liveTrackersUsing(deps.database.db, 'simCardId', row.id)) > 0) {
        throw new HttpError(
          409,
          'CONFLICT',
          'Este chip está instalado em um rastreador. Retire-o antes de remover.',
        );
      }
    },
  });
}

/** A referenced record must exist, be visible and belong to the same customer. */
async function sameCustomer(
  c: Ctx,
  deps: Deps,
  table: typeof vehicles | typeof simCards,
  id: string,
  clientId: string,
  what: string,
) {
  const row = await getOwned(deps.database.db, table, id, await visibleClientIds(c, deps));
  if (!row) throw notFound(`${what} não encontrado`);
  if (row.clientId !== clientId) throw badRequest(`${what} de outro cliente`);
}

export function trackerRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Rastreadores',
    audit: { entity: 'tracker', label: (row) => row.identifier },
    listKey: 'trackers',
    notFound: 'Rastreador não encontrado',
    duplicate: 'Identificador ou chip já usado por outro rastreador',
    schemas: {
      create: TrackerCreateSchema,
      update: TrackerUpdateSchema,
      query: TrackerQuerySchema,
      output: TrackerPageSchema,
    },
    ...trackerQueries,
    async checkRefs(c, input, clientId, existing) {
      const t = input as v.InferOutput<typeof TrackerUpdateSchema>;
      if (t.trackerTypeId && !(await trackerTypeExists(deps.database.db, t.trackerTypeId))) {
        throw notFound('Tipo de rastreador não encontrado');
      }
      if (t.devicePassword && t.wialonPassword && t.devicePassword !== t.wialonPassword)
        throw badRequest('Informe a senha do aparelho uma só vez (devicePassword)');
      if (t.vehicleId) await sameCustomer(c, deps, vehicles, t.vehicleId, clientId, 'Veículo');
      if (t.simCardId) await sameCustomer(c, deps, simCards, t.simCardId, clientId, 'Chip');
      // Moving to another customer: what stays linked must move too, or be unlinked.
      if (existing && clientId !== existing.clientId) {
        const vehicleId = t.vehicleId === undefined ? existing.vehicleId : t.vehicleId;
        const simCardId = t.simCardId === undefined ? existing.simCardId : t.simCardId;
        if (vehicleId && vehicleId === existing.vehicleId)
          throw new HttpError(409, 'CONFLICT', TRACKER_MOVE_LINKED);
        if (simCardId && simCardId === existing.simCardId)
          throw new HttpError(409, 'CONFLICT', TRACKER_MOVE_SIM);
      }
    },
    async toValues(input, existing) {
      const t = input as v.InferOutput<typeof TrackerUpdateSchema>;
      const values = present(t, [
        'clientId',
        'identifier',
        'trackerTypeId',
        'provider',
        'configMode',
        'vehicleId',
        'simCardId',
        'allowUnauthenticated',
        'commandPassword',
        'active',
      ]);
      // Only a hash is kept; null removes the device's own password.
      const password = t.devicePassword !== undefined ? t.devicePassword : t.wialonPassword;
      if (password !== undefined)
        values.devicePasswordHash = password === null ? null : hashDevicePassword(password);
      // Bound to the protocol given, else (new, or no protocol yet) its type's when that is
      // one of our listeners'.
      if (t.protocol) values.protocol = t.protocol;
      else if (t.trackerTypeId && !existing?.protocol) {
        const typed = await trackerTypeProtocol(deps.database.db, t.trackerTypeId);
        if (isDeviceProtocol(typed)) values.protocol = typed;
      }
      return values;
    },
    toOutput: async (_d, rows) => {
      const heard = await communicationOf(
        deps.database.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => ({
        ...owned(row),
        identifier: row.identifier,
        trackerTypeId: row.trackerTypeId,
        provider: row.provider,
        configMode: row.configMode,
        vehicleId: row.vehicleId,
        simCardId: row.simCardId,
        enabled: row.enabled,
        activatedAt: iso(row.activatedAt),
        protocol: row.protocol,
        devicePasswordSet: row.devicePasswordHash !== null,
        wialonPasswordSet: row.devicePasswordHash !== null,
        allowUnauthenticated: row.allowUnauthenticated,
        commandPasswordSet: row.commandPassword !== null,
        communication: communication(heard.get(row.id)),
      }));
    },
  });
}

/** A tracker's communication as the API gives it (null before it ever spoke). */
function communication(row: CommunicationRow | undefined): TrackerCommunication | null {
  if (!row) return null;
  const { trackerId: _, duplicateAddresses, ...rest } = row;
  return {
    ...rest,
    conflicts: Number(rest.conflicts),
    duplicateAddresses: duplicateAddresses ?? [],
  };
}

export function fleetRoutes(deps: Deps) {
  return ownedRoutes(deps, {
    tag: 'Frotas',
    audit: { entity: 'fleet', label: (row) => row.name },
    listKey: 'fleets',
    notFound: 'Frota não encontrada',
    duplicate: 'Já existe uma frota com este nome',
    schemas: {
      create: FleetCreateSchema,
      update: FleetUpdateSchema,
      query: FleetQuerySchema,
      output: FleetPageSchema,
    },
    ...fleetQueries,
    async checkRefs(_c, input, clientId, existing) {
      const given = (input as { vehicleIds?: string[] }).vehicleIds;
      const ids = [...new Set(given ?? [])];
      const found = await vehiclesOfClient(deps.database.db, clientId, ids);
      if (found.length !== ids.length)
        throw badRequest('Há veículos que não existem ou são de outro cliente');
      // Moving to another customer: it may not keep a (live) vehicle of the one it leaves.
      if (existing && given === undefined && clientId !== existing.clientId) {
        const kept = [...new Set(existing.vehicleIds)];
        if ((await vehiclesOfClient(deps.database.db, existing.clientId, kept)).length > 0)
          throw new HttpError(409, 'CONFLICT', FLEET_MOVE_VEHICLES);
      }
    },
    toValues: (input) => {
      const values = present(input as v.InferOutput<typeof FleetUpdateSchema>, [
        'clientId',
        'name',
        'description',
        'vehicleIds',
        'active',
      ]);
      if (Array.isArray(values.vehicleIds))
        values.vehicleIds = [...new Set(values.vehicleIds as string[])];
      return values;
    },
    toOutput: (_d, rows) =>
      rows.map((row) => ({
        ...owned(row),
        name: row.name,
        description: row.description,
        vehicleIds: row.vehicleIds,
      })),
  });
}
