/**
 * The driver's working day in the database: marks (one row per device-made id, so a mark sent
 * twice is stored once), managers' corrections and each company's rules. The write of a mark
 * takes the driver's id and who marked it, so both a manager's route and the driver's own link
 * go through `writeMark`.
 */
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import {
  type Correction,
  type CorrectionCreate,
  type JornadaSettings,
  MARK_FUTURE_MESSAGE,
  MARK_FUTURE_SKEW_MS,
  MARK_ID_TAKEN_MESSAGE,
  MARK_MAX_AGE_MS,
  MARK_TOO_OLD_MESSAGE,
  type Mark,
  type MarkCreate,
  type MarkSource,
} from '../../../src/contract/jornada';
import type { AuditActor } from '../../audit/record';
import { recordAudit } from '../../audit/record';
import { type Db, rowsOf } from '../../platform/db/client';
import { HttpError } from '../../platform/http/errors';
import { invalid } from '../../platform/http/validate';
import { driverMarks, jornadaCorrections, jornadaSettings, vehicles } from '../../schema';

type MarkRow = typeof driverMarks.$inferSelect;
type CorrectionRow = typeof jornadaCorrections.$inferSelect;

export const toMark = (row: MarkRow): Mark => ({
  id: row.id,
  driverId: row.driverId,
  kind: row.kind as Mark['kind'],
  at: row.at.toISOString(),
  source: row.source as MarkSource,
  note: row.note,
  receivedAt: row.receivedAt.toISOString(),
});

export const toCorrection = (row: CorrectionRow): Correction => ({
  id: row.id,
  driverId: row.driverId,
  kind: row.kind as Correction['kind'],
  start: row.startAt.toISOString(),
  end: row.endAt.toISOString(),
  reason: row.reason,
  userId: row.userId,
  createdAt: row.createdAt.toISOString(),
});

export interface MarkWriter {
  driverId: string;
  clientId: string;
  source: MarkSource;
  userId: string | null;
}

/**
 * Stores a driver's mark, once: the same id again answers the stored mark (`created` false)
 * and changes nothing; an id already used for another driver is refused. The mark's time is
 * the device's, refused when ahead of ours by more than a small skew or older than 7 days.
 */
export async function writeMark(
  db: Db,
  who: MarkWriter,
  input: MarkCreate,
  now: Date,
): Promise<{ mark: Mark; created: boolean }> {
  const existing = async () => {
    const [row] = await db.select().from(driverMarks).where(eq(driverMarks.id, input.id));
    return row;
  };
  const found = await existing();
  if (found) {
    if (found.driverId !== who.driverId)
      throw new HttpError(409, 'CONFLICT', MARK_ID_TAKEN_MESSAGE);
    return { mark: toMark(found), created: false };
  }
  const at = new Date(input.at);
  if (at.getTime() > now.getTime() + MARK_FUTURE_SKEW_MS) throw invalid('at', MARK_FUTURE_MESSAGE);
  if (at.getTime() < now.getTime() - MARK_MAX_AGE_MS) throw invalid('at', MARK_TOO_OLD_MESSAGE);
  const [row] = await db
    .insert(driverMarks)
    .values({
      id: input.id,
      clientId: who.clientId,
      driverId: who.driverId,
      kind: input.kind,
      at,
      source: who.source,
      note: input.note || null,
      userId: who.userId,
    })
    // Two copies of the same mark arriving together: the second finds the first.
    .onConflictDoNothing({ target: driverMarks.id })
    .returning();
  if (row) return { mark: toMark(row), created: true };
  const raced = await existing();
  if (!raced || raced.driverId !== who.driverId)
    throw new HttpError(409, 'CONFLICT', MARK_ID_TAKEN_MESSAGE);
  return { mark: toMark(raced), created: false };
}

/** A driver's marks in [from, to), in time order. */
export async function marksOf(db: Db, driverId: string, from: Date, to: Date): Promise<MarkRow[]> {
  return db
    .select()
    .from(driverMarks)
    .where(
      and(eq(driverMarks.driverId, driverId), gte(driverMarks.at, from), lt(driverMarks.at, to)),
    )
    .orderBy(asc(driverMarks.at), asc(driverMarks.receivedAt));
}

/** A manager's correction, with its audit line in the same transaction. */
export async function insertCorrection(
  db: Db,
  who: { driverId: string; clientId: string; actor: AuditActor },
  input: CorrectionCreate,
): Promise<CorrectionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(jornadaCorrections)
      .values({
        clientId: who.clientId,
        driverId: who.driverId,
        kind: input.kind,
        startAt: new Date(input.start),
        endAt: new Date(input.end),
        reason: input.reason,
        userId: who.actor.actorUserId,
      })
      .returning();
    if (!row) throw new Error('correction not stored');
    await recordAudit(tx, {
      ...who.actor,
      clientId: who.clientId,
      kind: 'create',
      entity: 'jornada_correction',
      entityId: row.id,
      summary: `${input.kind} ${input.start} – ${input.end}: ${input.reason}`,
      changes: {
        driverId: [null, who.driverId],
        kind: [null, input.kind],
        start: [null, input.start],
        end: [null, input.end],
        reason: [null, input.reason],
      },
    });
    return row;
  });
}

/** A driver's corrections that overlap [from, to), the oldest first (a later one wins). */
export async function correctionsOf(
  db: Db,
  driverId: string,
  from: Date,
  to: Date,
): Promise<CorrectionRow[]> {
  return db
    .select()
    .from(jornadaCorrections)
    .where(
      and(
        eq(jornadaCorrections.driverId, driverId),
        lt(jornadaCorrections.startAt, to),
        sql`${jornadaCorrections.endAt} > ${from.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(jornadaCorrections.createdAt));
}

export async function jornadaSettingsOf(db: Db, clientId: string): Promise<JornadaSettings> {
  const [row] = await db
    .select()
    .from(jornadaSettings)
    .where(eq(jornadaSettings.clientId, clientId));
  return {
    clientId,
    regime: (row?.regime ?? 'cargo') as JornadaSettings['regime'],
    overtimeLimitMinutes: row?.overtimeLimitMinutes ?? 120,
  };
}

/** Changes a company's rules, with the audit line in the same transaction. */
export async function saveJornadaSettings(
  db: Db,
  actor: AuditActor,
  clientId: string,
  values: Partial<Pick<JornadaSettings, 'regime' | 'overtimeLimitMinutes'>>,
): Promise<JornadaSettings> {
  return db.transaction(async (tx) => {
    const t: Db = tx;
    const before = await jornadaSettingsOf(t, clientId);
    await t
      .insert(jornadaSettings)
      .values({ clientId, ...values })
      .onConflictDoUpdate({
        target: jornadaSettings.clientId,
        set: { ...values, updatedAt: new Date() },
      });
    const after = await jornadaSettingsOf(t, clientId);
    await recordAudit(t, {
      ...actor,
      clientId,
      kind: 'update',
      entity: 'jornada_settings',
      entityId: clientId,
      summary: `${after.regime}, ${after.overtimeLimitMinutes / 60} h extras`,
      changes: {
        regime: [before.regime, after.regime],
        overtimeLimitMinutes: [before.overtimeLimitMinutes, after.overtimeLimitMinutes],
      },
    });
    return after;
  });
}

/**
 * The live drivers with a tag of these customers whose tag a vehicle read on the São Paulo
 * days given (the candidates of the working-day alerts).
 */
export async function driversTaggedOn(
  db: Db,
  clientIds: string[],
  days: string[],
): Promise<{ id: string; clientId: string; completName: string; rfidCode: string }[]> {
  if (clientIds.length === 0 || days.length === 0) return [];
  return rowsOf<{ id: string; client_id: string; complet_name: string; rfid_code: string }>(
    await db.execute(sql`
      select d.id, d.client_id, d.complet_name, d.rfid_code from drivers d
       where d.client_id = any(${`{${clientIds.join(',')}}`}::uuid[])
         and d.canceled_at is null and d.active and d.rfid_code is not null
         and exists (select 1 from vehicle_days vd
                      where vd.client_id = d.client_id
                        and vd.day = any(${`{${days.join(',')}}`}::text[])
                        and d.rfid_code = any(vd.driver_rfids))`),
  ).map((r) => ({
    id: r.id,
    clientId: r.client_id,
    completName: r.complet_name,
    rfidCode: r.rfid_code,
  }));
}

/** Plates and names of vehicles, by id. */
export async function vehicleLabels(
  db: Db,
  ids: string[],
): Promise<Map<string, { plate: string; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: vehicles.id, plate: vehicles.plate, name: vehicles.name })
    .from(vehicles)
    .where(inArray(vehicles.id, ids));
  return new Map(rows.map((r) => [r.id, { plate: r.plate, name: r.name }]));
}
