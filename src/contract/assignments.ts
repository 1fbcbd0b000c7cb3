/**
 * A driver assigned to a vehicle for a period ('designação'): who drove it when no RFID tag
 * was read. `end` absent or null: until further notice. Periods of one vehicle, and of one
 * driver, never overlap.
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema, PERIOD_ORDER } from './common';
import { listQuery, ownedOut, page } from './inventory';
import * as o from './objects';

export const ASSIGNMENT_VEHICLE_CLASH = 'Este veículo já tem motorista designado em';
export const ASSIGNMENT_DRIVER_CLASH = 'Este motorista já está designado a outro veículo em';

const assignmentFields = {
  clientId: IdSchema,
  driverId: IdSchema,
  vehicleId: IdSchema,
  start: IsoTimestampSchema,
  end: v.optional(v.nullable(IsoTimestampSchema)),
  active: v.optional(v.boolean()),
};
const ordered = (a: { start?: string | undefined; end?: string | null | undefined }) =>
  !a.start || !a.end || Date.parse(a.start) < Date.parse(a.end);

export const AssignmentCreateSchema = v.pipe(
  o.strictObject(assignmentFields),
  v.forward(v.partialCheck([['start'], ['end']], ordered, PERIOD_ORDER), ['end']),
);
export const AssignmentUpdateSchema = v.pipe(
  o.strictObject({
    ...assignmentFields,
    clientId: v.optional(IdSchema),
    driverId: v.optional(IdSchema),
    vehicleId: v.optional(IdSchema),
    start: v.optional(IsoTimestampSchema),
  }),
  v.forward(v.partialCheck([['start'], ['end']], ordered, PERIOD_ORDER), ['end']),
);
export const ASSIGNMENT_SORTS = ['start', 'createdAt', 'updatedAt'] as const;
export const AssignmentQuerySchema = o.strictObject({
  ...listQuery(ASSIGNMENT_SORTS).entries,
  driverId: v.optional(IdSchema),
  vehicleId: v.optional(IdSchema),
});
export const AssignmentSchema = o.object({
  ...ownedOut,
  driverId: v.string(),
  driverName: v.nullable(v.string()),
  vehicleId: v.string(),
  plate: v.nullable(v.string()),
  start: v.string(),
  end: v.nullable(v.string()),
});
export type Assignment = v.InferOutput<typeof AssignmentSchema>;
export type AssignmentCreate = v.InferOutput<typeof AssignmentCreateSchema>;
export type AssignmentUpdate = v.InferOutput<typeof AssignmentUpdateSchema>;
export const AssignmentPageSchema = page('assignments', AssignmentSchema);
export type AssignmentPage = v.InferOutput<typeof AssignmentPageSchema>;
