/**
 * Who drove a vehicle when no RFID tag says so: the driver assigned to it for the period
 * ('designação', jornada/queries/assignments.ts). Many fleets have no tag reader at all, and their
 * drivers would otherwise have no driving in the working day and no score.
 *
 * The rule, the same for the working day, its alerts, the driving score and the driver's page:
 * a tag read always wins (it says who was at the wheel, whatever the plan said); time in which
 * no tag was read is the assigned driver's, exactly the part of it an assignment covers, and
 * nobody's outside any assignment.
 */

export interface AssignedPeriod {
  driverId: string;
  vehicleId: string;
  /** Epoch ms. */
  start: number;
  /** Epoch ms; null: until further notice. */
  end: number | null;
}

const endOf = (p: AssignedPeriod) => p.end ?? Number.POSITIVE_INFINITY;

/** The driver assigned to the vehicle at this instant, if any. */
export function assignedAt(
  periods: readonly AssignedPeriod[],
  vehicleId: string,
  at: number,
): string | null {
  for (const p of periods)
    if (p.vehicleId === vehicleId && p.start <= at && at < endOf(p)) return p.driverId;
  return null;
}

/** The pieces of [start, end) in which this driver was assigned to the vehicle, in order. */
export function assignedWithin(
  periods: readonly AssignedPeriod[],
  driverId: string,
  vehicleId: string,
  start: number,
  end: number,
): { start: number; end: number }[] {
  return periods
    .filter((p) => p.driverId === driverId && p.vehicleId === vehicleId)
    .map((p) => ({ start: Math.max(start, p.start), end: Math.min(end, endOf(p)) }))
    .filter((s) => s.end > s.start)
    .sort((x, y) => x.start - y.start);
}
