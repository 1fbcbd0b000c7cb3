/**
 * One device's message on its way through the ingest pipeline (server/ingest/pipeline.ts), and
 * what became of it. The stages of the pipeline (group commit, the batch write, its retries)
 * pass these between them; the sources read `AcceptResult` to answer the device.
 */
import type { DeviceSource, IdentityRefusal } from './identity';
import type { Fix, Protocol, TrackerRef } from './queries/positions';
import type { Rejection } from './screen';

export interface AcceptResult {
  /** 'unknown_device' also for a known tracker that refused its sender (see identity.ts). */
  status: 'ok' | 'unknown_device';
  /** Fixes and reports without GPS stored (a retransmission of a stored fix is not counted). */
  stored: number;
  /** Of those, reports without GPS. */
  telemetry?: number;
  rejected: Rejection[];
  /** Whether the sender proved the device's password (see identity.ts). */
  authenticated?: boolean;
  /**
   * The fixes given that were neither stored nor already stored: in conflict with another
   * fix of the same time, or refused by the database ('invalid_value'). Those a device must be
   * told were not registered.
   */
  unstored?: Fix[];
}

/** What happened to one device's message, for the installers' view (device-status.ts). */
export interface DeviceEvent {
  identifier: string;
  /** The tracker it named, when that is an active one. */
  trackerId: string | undefined;
  source: DeviceSource;
  result: AcceptResult;
  /** Why a known tracker's message was refused as an unknown one's. */
  refusal: IdentityRefusal | undefined;
  at: number;
}

export interface DeviceObserver {
  message(event: DeviceEvent): void;
}

/** A message accepted and not yet answered: it waits in the queue, then in a batch. */
export interface Pending {
  identifier: string;
  fixes: Fix[];
  protocol: Protocol | undefined;
  /** Undefined for a trusted caller (see Pipeline.accept). */
  source: DeviceSource | undefined;
  resolve(result: AcceptResult): void;
  reject(err: unknown): void;
}

/** Told the newest fix of a tracker each time a batch stores newer ones (Pipeline.onStored). */
export type StoredListener = (tracker: TrackerRef, newest: Fix) => void;

/** Counters since start, for logs and health (Pipeline.stats). */
export type Counters = Record<Rejection | 'stored', number>;

export function createCounters(): Counters {
  return {
    stored: 0,
    unknown_device: 0,
    wrong_password: 0,
    no_password: 0,
    wrong_protocol: 0,
    invalid_coordinates: 0,
    no_fix: 0,
    zero_coordinates: 0,
    future_fix: 0,
    impossible_jump: 0,
    duplicate: 0,
    conflict: 0,
    invalid_value: 0,
  };
}

/** A message's fixes in time order, the order they are screened and stored in. */
export const inTimeOrder = (fixes: Fix[]) =>
  [...fixes].sort((a, b) => a.fixTime.getTime() - b.fixTime.getTime());
