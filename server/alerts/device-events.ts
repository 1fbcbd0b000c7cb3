/**
 * Alerts raised by what a device did rather than by a fix: LOCK_ACTIVATED when it confirms a
 * block (server/ingest/downlink.ts), DUPLICATE_DEVICE when two live devices speak for one
 * tracker. Both read the vehicle's rules from the engine's configuration cache.
 */
import { ALERT_TYPE_LABELS } from '../../src/contract';
import { withinWindow } from '../../src/lib/schedule';
import { type ConfigCache, contextOf } from './config-cache';
import type { AlertContext } from './outlet';
import { configVersion, vehicleNow, vehicleOfTracker } from './queries/alert-engine';

export interface DeviceEventContext extends AlertContext {
  configs: ConfigCache;
  hysteresisMeters: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A block command was confirmed by the device: LOCK_ACTIVATED, once per rule and command. */
export async function lockConfirmed(
  { db, store, deliver, configs, hysteresisMeters }: DeviceEventContext,
  commands: { id: string; vehicleId: string | null; kind: string }[],
) {
  for (const command of commands) {
    if (command.kind !== 'block' || !command.vehicleId) continue;
    const vehicle = await vehicleNow(db, command.vehicleId);
    if (!vehicle) continue;
    const customer = await configs.get(db, vehicle.clientId, await configVersion(db));
    const context = contextOf(customer, command.vehicleId, hysteresisMeters);
    const now = Date.now();
    const rules = context.rules.filter(
      (r) => r.type === 'LOCK_ACTIVATED' && (!r.schedule || withinWindow(r.schedule, now)),
    );
    if (rules.length === 0) continue;
    const vehicleId = command.vehicleId;
    const notified = await db.transaction((tx) =>
      store(
        tx,
        rules.map((rule) => ({
          clientId: vehicle.clientId,
          vehicleId,
          ruleId: rule.id,
          type: 'LOCK_ACTIVATED',
          geofenceId: null,
          latitude: vehicle.latitude,
          longitude: vehicle.longitude,
          speed: vehicle.speed,
          fixTime: vehicle.fixTime,
          late: false,
          dedupeKey: `${rule.id}:${vehicleId}:LOCK_ACTIVATED:${command.id}`,
          details: { commandId: command.id, confirmedAt: iso(now) },
          rule,
          plate: vehicle.plate,
          vehicleName: vehicle.name,
          geofenceName: null,
        })),
      ),
    );
    deliver(notified);
  }
}

/**
 * DUPLICATE_DEVICE on the tracker's vehicle, once per episode (the tracker and `since`): one
 * alert per rule of the type or, with none, one without a rule.
 */
export async function duplicateDevice(
  { db, store, deliver, configs, hysteresisMeters }: DeviceEventContext,
  trackerId: string,
  since: Date,
  addresses: string[],
) {
  const vehicleId = await vehicleOfTracker(db, trackerId);
  if (!vehicleId) return;
  const vehicle = await vehicleNow(db, vehicleId);
  if (!vehicle) return;
  const customer = await configs.get(db, vehicle.clientId, await configVersion(db));
  const context = contextOf(customer, vehicleId, hysteresisMeters);
  const rules = context.rules.filter(
    (r) => r.type === 'DUPLICATE_DEVICE' && (!r.schedule || withinWindow(r.schedule, Date.now())),
  );
  const label = ALERT_TYPE_LABELS.DUPLICATE_DEVICE;
  const targets = rules.length
    ? rules.map((rule) => ({ id: rule.id as string | null, rule }))
    : [{ id: null, rule: { name: label, emailDelivery: '' } }];
  const notified = await db.transaction((tx) =>
    store(
      tx,
      targets.map(({ id, rule }) => ({
        clientId: vehicle.clientId,
        vehicleId,
        ruleId: id,
        type: 'DUPLICATE_DEVICE',
        geofenceId: null,
        latitude: vehicle.latitude,
        longitude: vehicle.longitude,
        speed: vehicle.speed,
        fixTime: vehicle.fixTime,
        late: false,
        dedupeKey: `${id ?? 'system'}:${vehicleId}:DUPLICATE_DEVICE:${trackerId}:${since.getTime()}`,
        details: { trackerId, addresses, since: since.toISOString() },
        rule,
        plate: vehicle.plate,
        vehicleName: vehicle.name,
        geofenceName: null,
      })),
    ),
  );
  deliver(notified);
}
