/**
 * A company's driving-score weights (table driving_settings): read for every score made for it
 * and changed by its managers, the change audited in the same transaction. No row: the
 * documented defaults (DRIVING_WEIGHTS, DEFAULT_IDLE_MINUTES).
 */
import { eq } from 'drizzle-orm';
import {
  DEFAULT_IDLE_MINUTES,
  DRIVING_EVENT_KINDS,
  DRIVING_WEIGHTS,
  type DrivingSettings,
  type DrivingSettingsUpdate,
} from '../../../src/contract/driving';
import type { Changes } from '../../audit/diff';
import { type AuditActor, recordAudit } from '../../audit/record';
import type { Db } from '../../platform/db/client';
import { drivingSettings } from '../../schema';

export async function drivingSettingsOf(db: Db, clientId: string): Promise<DrivingSettings> {
  const [row] = await db
    .select()
    .from(drivingSettings)
    .where(eq(drivingSettings.clientId, clientId));
  if (!row)
    return {
      clientId,
      weights: { ...DRIVING_WEIGHTS },
      idleMinutes: DEFAULT_IDLE_MINUTES,
      custom: false,
    };
  const weights = {
    speedingVerySerious: row.speedingVerySerious,
    speedingSerious: row.speedingSerious,
    speedingMedium: row.speedingMedium,
    harshBraking: row.harshBraking,
    harshAcceleration: row.harshAcceleration,
    harshCornering: row.harshCornering,
    idling: row.idling,
  };
  return {
    clientId,
    weights,
    idleMinutes: row.idleMinutes,
    // Restored defaults keep their row: what tells is whether any value differs.
    custom:
      row.idleMinutes !== DEFAULT_IDLE_MINUTES ||
      DRIVING_EVENT_KINDS.some((k) => weights[k] !== DRIVING_WEIGHTS[k]),
  };
}

/** Replaces a company's weights, with the audit line of what changed. */
export async function saveDrivingSettings(
  db: Db,
  actor: AuditActor,
  { clientId, weights, idleMinutes }: DrivingSettingsUpdate,
): Promise<DrivingSettings> {
  return db.transaction(async (tx) => {
    const t: Db = tx;
    const before = await drivingSettingsOf(t, clientId);
    const values = { ...weights, idleMinutes };
    await t
      .insert(drivingSettings)
      .values({ clientId, ...values })
      .onConflictDoUpdate({
        target: drivingSettings.clientId,
        set: { ...values, updatedAt: new Date() },
      });
    const after = await drivingSettingsOf(t, clientId);
    const changes: Changes = {};
    for (const kind of DRIVING_EVENT_KINDS)
      if (before.weights[kind] !== after.weights[kind])
        changes[kind] = [before.weights[kind], after.weights[kind]];
    if (before.idleMinutes !== after.idleMinutes)
      changes.idleMinutes = [before.idleMinutes, after.idleMinutes];
    await recordAudit(t, {
      ...actor,
      clientId,
      kind: 'update',
      entity: 'driving_settings',
      entityId: clientId,
      summary: `Pesos da nota de direção: ${DRIVING_EVENT_KINDS.map((k) => after.weights[k]).join(
        ' / ',
      )}; marcha lenta após ${after.idleMinutes} min`,
      changes,
    });
    return after;
  });
}
