/**
 * The alert engine's ingest path. It sees every stored fix, black boxes included, inside the
 * ingest transaction (server/ingest/batch-write.ts → FixProcessor), in fix-time order per
 * vehicle, and raises alerts exactly once across restarts and processes:
 *
 * - Per batch: one read of the configuration counter, one statement that locks and reads the
 *   state rows of the batch's vehicles (in vehicle order: no deadlocks; on PGlite, whose
 *   transactions run one after another, read without a row lock), the evaluation in
 *   memory (server/alerts/evaluate.ts), one insert of the alerts and one write of the states.
 *   All of it commits with the positions, or none of it does: a fix is evaluated once, by the
 *   transaction that stored it (a repeated fix is not stored again, so it raises nothing).
 * - Alerts carry a unique dedupe key (rule, vehicle, type, fix time, geofence): even a state
 *   lost or rebuilt could not store the same alert twice.
 * - Late fixes (a black box uploaded after newer fixes were evaluated) do not move the state,
 *   which stays at the newest fix. They are evaluated in their own chain, in fix-time order,
 *   starting from the state that the stored fix just before them establishes (read from the
 *   positions), so their own edges raise alerts — marked late when received more than 15
 *   minutes after their time, and then not e-mailed nor pushed. Edges between the last of them
 *   and the next newer fix are not re-examined.
 *
 * PANIC (a device's panic button) is raised for every vehicle, with or without a rule of its
 * type: someone may be in danger, and nobody must have had to foresee it.
 */
import { ALERT_TYPE_LABELS } from '../../src/contract';
import type { FixProcessor } from '../ingest/batch-write';
import type { TrackerFix } from '../ingest/queries/positions';
import type { Db } from '../platform/db/client';
import { type ConfigCache, type CustomerConfig, contextOf } from './config-cache';
import {
  alarmAlert,
  type EvalFix,
  evaluate,
  isLate,
  type Raised,
  type VehicleState,
} from './evaluate';
import type { AlertOutlet } from './outlet';
import { configVersion, fixesBefore, lockStates, writeStates } from './queries/alert-engine';

export interface FixProcessorContext extends AlertOutlet {
  configs: ConfigCache;
  hysteresisMeters: number;
  /** Lock each vehicle's state row while it is evaluated (false on PGlite: see lockStates). */
  rowLocks: boolean;
}

/** A batch's fixes by vehicle. */
type ByVehicle = Map<string, { clientId: string; fixes: EvalFix[] }>;
type Panic = { vehicleId: string; clientId: string; fix: EvalFix };
type LateChain = { vehicleId: string; clientId: string; fixes: EvalFix[] };
/** What lockCovered read: the customers' configurations, the states and who needs work. */
interface Batch {
  customers: Map<string, CustomerConfig>;
  states: Map<string, Record<string, unknown>>;
  /** The batch's vehicles that a rule covers. */
  covered: string[];
}

function toEvalFix(row: TrackerFix, receivedAt: number): EvalFix {
  const { fix } = row;
  return {
    fixTime: fix.fixTime.getTime(),
    receivedAt,
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: fix.speed,
    ignition: fix.ignition,
    battery: fix.battery,
    attributes: fix.attributes ?? {},
    positioned: fix.valid !== false,
  };
}

export function createFixProcessor(context: FixProcessorContext): FixProcessor {
  const { store, deliver, hysteresisMeters } = context;
  return {
    async process(tx, stored, receivedAt) {
      const { byVehicle, panics } = groupFixes(stored, receivedAt);
      if (byVehicle.size === 0) return undefined;
      const batch = await lockCovered(tx, context, byVehicle, panics.length > 0);
      if (!batch) return undefined;
      const { customers, states } = batch;
      const { raised, lateChains } = evaluateNewer(hysteresisMeters, byVehicle, batch);
      if (lateChains.length)
        raised.push(...(await evaluateLate(tx, hysteresisMeters, lateChains, customers)));
      const notified = await store(tx, [
        ...raised.map((r) => fromRaised(r, customers.get(r.clientId)?.vehicles.get(r.vehicleId))),
        ...systemPanics(hysteresisMeters, panics, raised, customers),
      ]);
      await writeStates(tx, states);
      return () => deliver(notified);
    },
  };
}

/** The batch's fixes that may raise alerts, by vehicle, and its panic button presses. */
function groupFixes(stored: TrackerFix[], receivedAt: Date) {
  const byVehicle: ByVehicle = new Map();
  const panics: Panic[] = [];
  for (const row of stored) {
    const vehicleId = row.tracker.vehicleId;
    // A mocked location (a phone app that fakes its GPS) is stored flagged, never judged.
    if (!vehicleId || row.fix.attributes.mock === true) continue;
    const entry = byVehicle.get(vehicleId) ?? { clientId: row.tracker.clientId, fixes: [] };
    const fix = toEvalFix(row, receivedAt.getTime());
    entry.fixes.push(fix);
    byVehicle.set(vehicleId, entry);
    if (alarmAlert(fix) === 'PANIC') panics.push({ vehicleId, clientId: entry.clientId, fix });
  }
  return { byVehicle, panics };
}

/**
 * The batch's customers' configurations, current, and the state rows of its vehicles that a
 * rule covers, locked; undefined when no rule covers any and no panic button was pressed.
 */
async function lockCovered(
  tx: Db,
  { configs, hysteresisMeters, rowLocks }: FixProcessorContext,
  byVehicle: ByVehicle,
  panicked: boolean,
): Promise<Batch | undefined> {
  // The configuration cached decides which vehicles need work; the version read with their
  // state rows (one statement) says whether it is still current. A customer not cached yet,
  // or a batch with nothing to lock, reads the version on its own.
  const clientIds = [...new Set([...byVehicle.values()].map((v) => v.clientId))];
  const customers = new Map<string, CustomerConfig>();
  const refresh = async (version: number) => {
    for (const clientId of clientIds)
      customers.set(clientId, await configs.get(tx, clientId, version));
  };
  const covered = () =>
    [...byVehicle.keys()].filter((vehicleId) => {
      const customer = customers.get(byVehicle.get(vehicleId)?.clientId ?? '');
      return customer && contextOf(customer, vehicleId, hysteresisMeters).rules.length > 0;
    });
  for (const clientId of clientIds) {
    const cached = configs.peek(clientId);
    if (cached) customers.set(clientId, cached);
  }
  let candidates = customers.size === clientIds.length ? covered() : [];
  let states: Batch['states'];
  if (candidates.length === 0) {
    await refresh(await configVersion(tx));
    candidates = covered();
    // Vehicles no rule covers cost nothing more, unless a panic button was pressed.
    if (candidates.length === 0 && !panicked) return undefined;
    states = (await lockStates(tx, candidates, rowLocks)).states;
  } else {
    const locked = await lockStates(tx, candidates, rowLocks);
    states = locked.states;
    await refresh(locked.version);
    const extra = covered().filter((id) => !states.has(id));
    if (extra.length)
      for (const [id, state] of (await lockStates(tx, extra, rowLocks)).states)
        states.set(id, state);
  }
  return { customers, states, covered: covered() };
}

/**
 * Evaluates the fixes newer than each covered vehicle's state, moving the state; the older
 * ones (late) are left in chains for evaluateLate.
 */
function evaluateNewer(
  hysteresisMeters: number,
  byVehicle: ByVehicle,
  { customers, states, covered }: Batch,
) {
  const work = covered.flatMap((vehicleId) => {
    const entry = byVehicle.get(vehicleId);
    return entry ? [[vehicleId, entry] as const] : [];
  });
  const raised: Raised[] = [];
  const lateChains: LateChain[] = [];
  for (const [vehicleId, { clientId, fixes }] of work) {
    const customer = customers.get(clientId);
    if (!customer) continue;
    const context = contextOf(customer, vehicleId, hysteresisMeters);
    const state = (states.get(vehicleId) ?? {}) as VehicleState;
    const newest = state.t;
    const ordered = [...fixes].sort((a, b) => a.fixTime - b.fixTime);
    const older = newest === undefined ? [] : ordered.filter((f) => f.fixTime <= newest);
    for (const fix of ordered) {
      if (newest !== undefined && fix.fixTime <= newest) continue;
      raised.push(...evaluate(state, fix, context));
    }
    states.set(vehicleId, state as Record<string, unknown>);
    if (older.length) lateChains.push({ vehicleId, clientId, fixes: older });
  }
  return { raised, lateChains };
}

/** Evaluates each late chain on a state of its own, begun at the stored fix before it. */
async function evaluateLate(
  tx: Db,
  hysteresisMeters: number,
  lateChains: LateChain[],
  customers: Map<string, CustomerConfig>,
): Promise<Raised[]> {
  const raised: Raised[] = [];
  const starts = await fixesBefore(
    tx,
    lateChains.map((c) => ({
      vehicleId: c.vehicleId,
      before: new Date(c.fixes[0]?.fixTime ?? 0),
    })),
  );
  for (const chain of lateChains) {
    const customer = customers.get(chain.clientId);
    if (!customer) continue;
    const context = contextOf(customer, chain.vehicleId, hysteresisMeters);
    const side: VehicleState = {};
    const start = starts.get(chain.vehicleId);
    if (start)
      evaluate(
        side,
        {
          fixTime: start.fixTime.getTime(),
          receivedAt: start.receivedAt.getTime(),
          latitude: start.latitude,
          longitude: start.longitude,
          speed: start.speed,
          ignition: start.ignition,
          battery: start.battery,
          attributes: start.attributes ?? {},
        },
        context,
        true,
      );
    for (const fix of chain.fixes) raised.push(...evaluate(side, fix, context));
  }
  return raised;
}

const fromRaised = (r: Raised, names: { plate: string; name: string } | undefined) => ({
  clientId: r.clientId,
  vehicleId: r.vehicleId,
  ruleId: r.rule.id,
  type: r.type,
  geofenceId: r.geofence?.id ?? null,
  latitude: r.fix.latitude,
  longitude: r.fix.longitude,
  speed: r.fix.speed ?? null,
  fixTime: new Date(r.fix.fixTime),
  late: r.late,
  dedupeKey: r.dedupeKey,
  details: r.details,
  rule: r.rule,
  plate: names?.plate ?? null,
  vehicleName: names?.name ?? null,
  geofenceName: r.geofence?.name ?? null,
});

/** The panics no rule of the vehicle raised: one alert each, without a rule. */
function systemPanics(
  hysteresisMeters: number,
  panics: Panic[],
  raised: Raised[],
  customers: Map<string, CustomerConfig>,
) {
  const byRule = new Set(
    raised.filter((r) => r.type === 'PANIC').map((r) => `${r.vehicleId}@${r.fix.fixTime}`),
  );
  return panics
    .filter((p) => !byRule.has(`${p.vehicleId}@${p.fix.fixTime}`))
    .filter((p) => {
      // A vehicle with a PANIC rule outside its schedule stays quiet, as the rule says.
      const customer = customers.get(p.clientId);
      const rules = customer ? contextOf(customer, p.vehicleId, hysteresisMeters).rules : [];
      return !rules.some((r) => r.type === 'PANIC');
    })
    .map(({ vehicleId, clientId, fix }) => {
      const names = customers.get(clientId)?.vehicles.get(vehicleId);
      return {
        clientId,
        vehicleId,
        ruleId: null,
        type: 'PANIC' as const,
        geofenceId: null,
        latitude: fix.latitude,
        longitude: fix.longitude,
        speed: fix.speed ?? null,
        fixTime: new Date(fix.fixTime),
        late: isLate(fix),
        dedupeKey: `system:${vehicleId}:PANIC:${fix.fixTime}`,
        details: { alarm: 'sos' },
        rule: { name: ALERT_TYPE_LABELS.PANIC, emailDelivery: '' },
        plate: names?.plate ?? null,
        vehicleName: names?.name ?? null,
        geofenceName: null,
      };
    });
}
