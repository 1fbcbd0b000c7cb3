/**
 * The alert engine. It sees every stored fix, black boxes included, inside the ingest
 * transaction (server/ingest/batch-write.ts → FixProcessor), in fix-time order per vehicle, and
 * raises alerts exactly once across restarts and processes:
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
 * LOCATION_TIMEOUT is a periodic check (every ALERT_TIMEOUT_CHECK_SECONDS, in one process at a
 * time: server/jobs.ts) over last locations, keyed by the silent vehicle's last fix: raised
 * once per silence, and two processes running it anyway store it once. LOCK_ACTIVATED is
 * raised when the device confirms a block (server/ingest/downlink.ts). PANIC (a device's panic
 * button) is raised for every vehicle, with or without a rule of its type: someone may be in
 * danger, and nobody must have had to foresee it. Notifiers
 * (server/alerts/notifier.ts) get every alert.
 */
import {
  ALERT_TYPE_LABELS,
  type AlertType,
  alertDocument,
  JORNADA_ALERT_TYPES,
} from '../../src/contract';
import { withinWindow } from '../../src/lib/schedule';
import type { Config } from '../config';
import {
  activeRulesOfType,
  configVersion,
  fixesBefore,
  insertAlerts,
  lockStates,
  type NewAlert,
  type RuleRow,
  ruleScope,
  silentVehicles,
  vehicleNow,
  vehicleOfTracker,
  writeStates,
} from '../db/alert-engine';
import type { Db } from '../db/client';
import { driverClients, expiringList } from '../db/documents';
import { dueList, vehicleClients } from '../db/maintenance';
import type { TrackerFix } from '../db/positions';
import type { FixProcessor } from '../ingest/batch-write';
import { type JornadaAlertItem, jornadaAlertItems } from '../jornada/alerts';
import type { Logger } from '../log';
import { type CustomerConfig, contextOf, createConfigCache } from './config-cache';
import {
  alarmAlert,
  type CompiledRule,
  type EvalFix,
  evaluate,
  isLate,
  type Raised,
  type VehicleState,
} from './evaluate';
import type { AlertNotifier, StoredAlert } from './notifier';

export interface AlertEngine {
  /** Plugged into the ingest pipeline. */
  processor: FixProcessor;
  /** Raises LOCATION_TIMEOUT for vehicles silent past their rules' minutes; returns how many. */
  checkTimeouts(now?: Date): Promise<number>;
  /**
   * Raises MAINTENANCE_DUE for plans entering their warning margin or past their limit, on
   * the vehicles of each rule of the type, once per plan cycle and stage; and
   * DOCUMENT_EXPIRING for vehicles' documents within their rules' days (and drivers' documents
   * and CNH, for rules over the whole customer), once per document and expiry. Returns how
   * many.
   */
  checkUpkeep(now?: Date): Promise<number>;
  /**
   * Raises JORNADA_DRIVING_LIMIT (5 h of continuous driving, once per stretch) and
   * JORNADA_REST_SHORT (a journey begun after less than 11 h of rest, once per journey) for
   * the drivers whose tag the vehicles of each rule of those types read. Returns how many.
   */
  checkJornada(now?: Date): Promise<number>;
  /** A block command was confirmed by the device: LOCK_ACTIVATED. */
  lockConfirmed(commands: { id: string; vehicleId: string | null; kind: string }[]): Promise<void>;
  /**
   * Two live devices speak for this tracker since `since`: DUPLICATE_DEVICE on its vehicle,
   * once per episode, for every customer (one alert per rule of the type, else one without).
   */
  duplicateDevice(trackerId: string, since: Date, addresses: string[]): Promise<void>;
  /** Adds a way out for alerts (Web Push, FCM); returns the function that removes it. */
  addNotifier(notifier: AlertNotifier): () => void;
}

interface Notified {
  alerts: StoredAlert[];
}

/** One alert of a periodic check over records: about a vehicle, or about a driver. */
type UnplacedItem = (
  | { vehicleId: string; driverId?: undefined }
  | { vehicleId: null; driverId: string; driverName: string | null }
) & {
  dedupeKey: string;
  details: Record<string, unknown>;
  plate: string | null;
  vehicleName: string | null;
};

const iso = (ms: number) => new Date(ms).toISOString();

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

export function createAlertEngine(
  db: Db,
  config: Pick<Config, 'alerts'>,
  log: Logger,
  notifiers: AlertNotifier[] = [],
  options: {
    /** Lock each vehicle's state row while it is evaluated (false on PGlite: see lockStates). */
    rowLocks?: boolean;
  } = {},
): AlertEngine {
  const rowLocks = options.rowLocks ?? true;
  const { hysteresisMeters } = config.alerts;
  const configs = createConfigCache(hysteresisMeters);
  const outs = new Set(notifiers);

  /** Stores alerts and hands them to the notifiers' enqueue, in `tx`; returns the new ones. */
  async function store(
    tx: Db,
    raised: (NewAlert & { rule: Pick<CompiledRule, 'name' | 'emailDelivery'> } & {
      plate: string | null;
      vehicleName: string | null;
      driverName?: string | null;
      geofenceName: string | null;
    })[],
  ): Promise<Notified> {
    const inserted = await insertAlerts(tx, raised);
    const alerts: StoredAlert[] = [];
    for (const a of raised) {
      const row = inserted.get(a.dedupeKey);
      if (!row) continue;
      alerts.push({
        id: row.id,
        type: a.type as AlertType,
        vehicleId: a.vehicleId,
        plate: a.plate,
        vehicleName: a.vehicleName,
        driverId: a.driverId ?? null,
        driverName: a.driverName ?? null,
        document: alertDocument(a.type, a.details),
        ruleId: a.ruleId,
        ruleName: a.rule.name,
        latitude: a.latitude,
        longitude: a.longitude,
        speed: a.speed,
        fixTime: a.fixTime?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        acknowledgedAt: null,
        acknowledgedBy: null,
        late: a.late,
        clientId: a.clientId,
        geofenceId: a.geofenceId,
        geofenceName: a.geofenceName,
        emailDelivery: a.rule.emailDelivery,
        details: a.details,
      });
    }
    if (alerts.length) for (const out of outs) await out.enqueue?.(tx, alerts);
    return { alerts };
  }

  function deliver({ alerts }: Notified) {
    if (alerts.length === 0) return;
    for (const out of outs) {
      try {
        void Promise.resolve(out.deliver?.(alerts)).catch((err: unknown) =>
          log.error('alerts: notifier failed', { notifier: out.name, err }),
        );
      } catch (err) {
        log.error('alerts: notifier failed', { notifier: out.name, err });
      }
    }
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

  const processor: FixProcessor = {
    async process(tx, stored, receivedAt) {
      const byVehicle = new Map<string, { clientId: string; fixes: EvalFix[] }>();
      const panics: { vehicleId: string; clientId: string; fix: EvalFix }[] = [];
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
      if (byVehicle.size === 0) return undefined;
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
      let states: Map<string, Record<string, unknown>>;
      if (candidates.length === 0) {
        await refresh(await configVersion(tx));
        candidates = covered();
        // Vehicles no rule covers cost nothing more, unless a panic button was pressed.
        if (candidates.length === 0 && panics.length === 0) return undefined;
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
      const work = covered().flatMap((vehicleId) => {
        const entry = byVehicle.get(vehicleId);
        return entry ? [[vehicleId, entry] as const] : [];
      });
      const raised: Raised[] = [];
      const lateChains: { vehicleId: string; clientId: string; fixes: EvalFix[] }[] = [];
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
      if (lateChains.length) {
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
      }
      const notified = await store(tx, [
        ...raised.map((r) => fromRaised(r, customers.get(r.clientId)?.vehicles.get(r.vehicleId))),
        ...systemPanics(panics, raised, customers),
      ]);
      await writeStates(tx, states);
      return () => deliver(notified);
    },
  };

  /** The panics no rule of the vehicle raised: one alert each, without a rule. */
  function systemPanics(
    panics: { vehicleId: string; clientId: string; fix: EvalFix }[],
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

  async function checkTimeouts(now = new Date()): Promise<number> {
    const rules = await activeRulesOfType(db, 'LOCATION_TIMEOUT');
    let count = 0;
    for (const rule of rules) {
      if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
      const minutes = Number((rule.params as { minutes?: unknown }).minutes);
      if (!Number.isFinite(minutes) || minutes <= 0) continue;
      const silent = await silentVehicles(db, rule, new Date(now.getTime() - minutes * 60_000));
      if (silent.length === 0) continue;
      const notified = await db.transaction((tx) =>
        store(
          tx,
          silent.map((v) => ({
            clientId: v.clientId,
            vehicleId: v.vehicleId,
            ruleId: rule.id,
            type: 'LOCATION_TIMEOUT',
            geofenceId: null,
            latitude: v.latitude,
            longitude: v.longitude,
            speed: v.speed,
            fixTime: v.fixTime,
            late: false,
            // Once per silence: the silence is named by the fix it follows.
            dedupeKey: `${rule.id}:${v.vehicleId}:LOCATION_TIMEOUT:${v.fixTime.getTime()}`,
            details: { minutes, lastFix: v.fixTime.toISOString() },
            rule,
            plate: v.plate,
            vehicleName: v.name,
            geofenceName: null,
          })),
        ),
      );
      count += notified.alerts.length;
      deliver(notified);
    }
    return count;
  }

  /**
   * Stores and delivers the alerts of one rule's periodic check over the fleet's records: they
   * have no position (no place, speed nor fix time), one row per item, each about a vehicle or
   * (a driver's document) about a driver, and in its customer.
   */
  async function storeUnplaced(
    rule: RuleRow,
    type: 'MAINTENANCE_DUE' | 'DOCUMENT_EXPIRING' | JornadaAlertItem['type'],
    items: UnplacedItem[],
  ): Promise<number> {
    if (items.length === 0) return 0;
    const vehiclesOf = await vehicleClients(db, [
      ...new Set(items.flatMap((i) => i.vehicleId ?? [])),
    ]);
    const driversOf = await driverClients(db, [...new Set(items.flatMap((i) => i.driverId ?? []))]);
    const clientOf = (item: UnplacedItem) =>
      (item.vehicleId === null ? driversOf.get(item.driverId) : vehiclesOf.get(item.vehicleId)) ??
      rule.clientId;
    const notified = await db.transaction((tx) =>
      store(
        tx,
        items.map((item) => ({
          clientId: clientOf(item),
          vehicleId: item.vehicleId,
          driverId: item.driverId ?? null,
          driverName: item.vehicleId === null ? item.driverName : null,
          ruleId: rule.id,
          type,
          geofenceId: null,
          latitude: null,
          longitude: null,
          speed: null,
          fixTime: null,
          late: false,
          dedupeKey: item.dedupeKey,
          details: item.details,
          rule,
          plate: item.plate,
          vehicleName: item.vehicleName,
          geofenceName: null,
        })),
      ),
    );
    deliver(notified);
    return notified.alerts.length;
  }

  async function checkUpkeep(now = new Date()): Promise<number> {
    let count = 0;
    for (const rule of await activeRulesOfType(db, 'MAINTENANCE_DUE')) {
      if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
      const scope = await ruleScope(db, rule);
      if (scope.vehicleIds.size === 0) continue;
      const due = (await dueList(db, scope.clientIds, now, scope.vehicleIds)).filter(
        (item) => item.status !== 'ok',
      );
      count += await storeUnplaced(
        rule,
        'MAINTENANCE_DUE',
        due.map((item) => ({
          vehicleId: item.vehicleId,
          // Once per cycle (the service it counts from) and stage: a service starts another.
          dedupeKey: `${rule.id}:${item.vehicleId}:MAINTENANCE_DUE:${item.planId}:${item.cycle}:${item.status}`,
          details: {
            stage: item.status,
            planId: item.planId,
            planName: item.planName,
            kmLeft: item.km?.left ?? null,
            hoursLeft: item.hours?.left ?? null,
            daysLeft: item.days?.left ?? null,
            dueDate: item.days?.due ?? null,
          },
          plate: item.plate,
          vehicleName: item.vehicleName,
        })),
      );
    }
    return count + (await checkDocuments(now));
  }

  async function checkJornada(now = new Date()): Promise<number> {
    let count = 0;
    for (const type of JORNADA_ALERT_TYPES)
      for (const rule of await activeRulesOfType(db, type)) {
        if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
        const scope = await ruleScope(db, rule);
        if (scope.vehicleIds.size === 0) continue;
        count += await storeUnplaced(rule, type, await jornadaAlertItems(db, rule, scope, now));
      }
    return count;
  }

  /**
   * DOCUMENT_EXPIRING within each rule's daysBefore (São Paulo days): the documents of the
   * vehicles a rule covers and, when the rule covers its whole customer (no vehicle nor fleet
   * chosen), the drivers' too — their documents and CNH. A driver belongs to no vehicle nor
   * fleet: a rule limited to some vehicles speaks of those vehicles only.
   */
  async function checkDocuments(now: Date): Promise<number> {
    let count = 0;
    for (const rule of await activeRulesOfType(db, 'DOCUMENT_EXPIRING')) {
      if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
      const daysBefore = Number((rule.params as { daysBefore?: unknown }).daysBefore ?? 30);
      if (!Number.isFinite(daysBefore)) continue;
      const scope = await ruleScope(db, rule);
      const drivers = rule.vehicleIds.length === 0 && rule.fleetIds.length === 0;
      if (scope.vehicleIds.size === 0 && !drivers) continue;
      const expiring = await expiringList(db, scope.clientIds, now, daysBefore, {
        vehicleIds: scope.vehicleIds,
        drivers,
      });
      count += await storeUnplaced(
        rule,
        'DOCUMENT_EXPIRING',
        expiring.flatMap((doc): UnplacedItem[] => {
          const common = {
            details: {
              documentId: doc.id,
              kind: doc.kind,
              label: doc.label,
              number: doc.number,
              expiry: doc.expiry,
              daysLeft: doc.daysLeft,
              daysBefore,
            },
            plate: doc.plate,
            vehicleName: null,
          };
          // Once per document and expiry: a renewed document (a new expiry) warns again.
          if (doc.vehicleId !== null)
            return [
              {
                ...common,
                vehicleId: doc.vehicleId,
                dedupeKey: `${rule.id}:${doc.vehicleId}:DOCUMENT_EXPIRING:${doc.id}:${doc.expiry}`,
              },
            ];
          if (doc.driverId === null) return [];
          return [
            {
              ...common,
              vehicleId: null,
              driverId: doc.driverId,
              driverName: doc.driverName,
              // The CNH's id is 'cnh:<driver>': a new licenseExpiry is a new key too.
              dedupeKey: `${rule.id}:driver:${doc.driverId}:DOCUMENT_EXPIRING:${doc.id}:${doc.expiry}`,
            },
          ];
        }),
      );
    }
    return count;
  }

  async function lockConfirmed(commands: { id: string; vehicleId: string | null; kind: string }[]) {
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

  async function duplicateDevice(trackerId: string, since: Date, addresses: string[]) {
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

  return {
    processor,
    checkTimeouts,
    checkUpkeep,
    checkJornada,
    lockConfirmed,
    duplicateDevice,
    addNotifier(notifier) {
      outs.add(notifier);
      return () => outs.delete(notifier);
    },
  };
}
