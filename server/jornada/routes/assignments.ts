/**
 * Drivers assigned to vehicles for a period ('designação', customer-owned, on ownedRoutes):
 * who drove a vehicle when no tag was read (server/reports/attribution.ts). The driver and the
 * vehicle are of the period's customer; periods of one vehicle, or of one driver, never
 * overlap, and a clash is refused naming the period it clashes with.
 */
import {
  ASSIGNMENT_DRIVER_CLASH,
  ASSIGNMENT_VEHICLE_CLASH,
  AssignmentCreateSchema,
  AssignmentPageSchema,
  AssignmentQuerySchema,
  type AssignmentUpdate,
  AssignmentUpdateSchema,
  PERIOD_ORDER,
} from '../../../src/contract';
import { localDateAndClock } from '../../../src/lib/local-time';
import type { Deps } from '../../deps';
import { vehiclesOfClient } from '../../inventory/queries/inventory';
import { type Ctx, iso, owned, ownedRoutes, present } from '../../owned/mold';
import { getOwned } from '../../owned/queries';
import { HttpError } from '../../platform/http/errors';
import { invalid } from '../../platform/http/validate';
import { type driverAssignments, drivers } from '../../schema';
import { visibleClientIds } from '../../tenancy/scope';
import {
  assignmentClash,
  assignmentLabels,
  assignmentQueries,
  lockAssignmentSubjects,
} from '../queries/assignments';

type Patch = AssignmentUpdate;
type Row = typeof driverAssignments.$inferSelect;

export const ASSIGNMENT_NOT_FOUND = 'Designação não encontrada';

const periodText = (start: Date, end: Date | null) =>
  `${localDateAndClock(start)} – ${end ? localDateAndClock(end) : 'sem data de fim'}`;

export function assignmentRoutes(deps: Deps) {
  const { db } = deps.database;
  return ownedRoutes(deps, {
    tag: 'Designações de motoristas',
    audit: {
      entity: 'driver_assignment',
      label: (row) => periodText(row.startAt, row.endAt),
    },
    listKey: 'assignments',
    notFound: ASSIGNMENT_NOT_FOUND,
    duplicate: 'Já existe esta designação',
    schemas: {
      create: AssignmentCreateSchema,
      update: AssignmentUpdateSchema,
      query: AssignmentQuerySchema,
      output: AssignmentPageSchema,
    },
    ...assignmentQueries,
    async checkRefs(c: Ctx, input, clientId, existing?: Row) {
      const p = input as Patch;
      const driverId = p.driverId ?? existing?.driverId;
      const vehicleId = p.vehicleId ?? existing?.vehicleId;
      if (!driverId) throw invalid('driverId', 'Campo obrigatório');
      if (!vehicleId) throw invalid('vehicleId', 'Campo obrigatório');
      const moved = existing !== undefined && clientId !== existing.clientId;
      if (p.vehicleId || moved) {
        const found = await vehiclesOfClient(db, clientId, [vehicleId]);
        if (found.length === 0) throw invalid('vehicleId', 'Veículo não encontrado neste cliente');
      }
      if (p.driverId || moved) {
        const driver = await getOwned(db, drivers, driverId, await visibleClientIds(c, deps));
        if (!driver || driver.clientId !== clientId)
          throw invalid('driverId', 'Motorista não encontrado neste cliente');
      }
      const startAt = p.start ? new Date(p.start) : existing?.startAt;
      if (!startAt) throw invalid('start', 'Campo obrigatório');
      const endAt =
        p.end === undefined ? (existing?.endAt ?? null) : p.end === null ? null : new Date(p.end);
      // A patch of one end only is checked against the other as stored.
      if (endAt && endAt <= startAt) throw invalid('end', PERIOD_ORDER);
    },
    async beforeWrite(tx, values, existing?: Row) {
      const after = { ...existing, ...values } as Partial<Row>;
      const { driverId, vehicleId, startAt } = after;
      // A period switched off or removed clashes with nothing; switching one on is checked.
      if (!driverId || !vehicleId || !startAt || after.active === false) return;
      // Two periods written at once for the same vehicle or driver: the second waits here for
      // the first to commit, then sees it.
      await lockAssignmentSubjects(tx, driverId, vehicleId);
      const clash = await assignmentClash(tx, {
        driverId,
        vehicleId,
        startAt,
        endAt: after.endAt ?? null,
        ...(existing ? { except: existing.id } : {}),
      });
      if (clash)
        throw new HttpError(
          409,
          'CONFLICT',
          clash.of === 'vehicle'
            ? `${ASSIGNMENT_VEHICLE_CLASH} ${periodText(clash.startAt, clash.endAt)} (${clash.driverName})`
            : `${ASSIGNMENT_DRIVER_CLASH} ${periodText(clash.startAt, clash.endAt)} (${clash.plate})`,
        );
    },
    toValues(input) {
      const p = input as Patch;
      const values = present(p, ['clientId', 'driverId', 'vehicleId', 'active']);
      if (p.start) values.startAt = new Date(p.start);
      if (p.end !== undefined) values.endAt = p.end === null ? null : new Date(p.end);
      return values;
    },
    async toOutput(_deps, rows) {
      const { names, plates } = await assignmentLabels(
        db,
        [...new Set(rows.map((r) => r.driverId))],
        [...new Set(rows.map((r) => r.vehicleId))],
      );
      return rows.map((row) => ({
        ...owned(row),
        driverId: row.driverId,
        driverName: names.get(row.driverId) ?? null,
        vehicleId: row.vehicleId,
        plate: plates.get(row.vehicleId) ?? null,
        start: row.startAt.toISOString(),
        end: iso(row.endAt),
      }));
    },
  });
}
