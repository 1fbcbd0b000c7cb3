import { describe, expect, it } from 'vitest';
import type { Tracker, TrackerCommunication } from '../../src/contract';
import { trackerBadges } from '../../src/features/inventory/tracker-status';

const now = Date.parse('2026-11-28T12:00:00Z');
const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

const heard = (fields: Partial<TrackerCommunication> = {}): TrackerCommunication => ({
  lastSeenAt: ago(1),
  lastAddress: '127.0.0.1',
  lastProtocol: 'osmand',
  lastKind: 'position',
  lastRefusal: null,
  lastRefusedAt: null,
  conflicts: 0,
  lastConflictAt: null,
  authenticated: true,
  duplicateSince: null,
  lastFixAt: ago(1),
  noGpsSince: null,
  duplicateAddresses: [],
  ...fields,
});

const tracker = (fields: Partial<Tracker> = {}) =>
  ({
    id: 't',
    clientId: 'c',
    identifier: '490154203237518',
    provider: 'rastro',
    protocol: 'osmand',
    devicePasswordSet: true,
    allowUnauthenticated: false,
    communication: heard(),
    ...fields,
  }) as Tracker;

const kinds = (t: Tracker) => trackerBadges(t, now).map((badge) => badge.kind);

describe('tracker badges', () => {
  it('says online, silent or never heard by the map’s own rule', () => {
    expect(kinds(tracker())).toEqual(['online']);
    expect(kinds(tracker({ communication: heard({ lastSeenAt: ago(600) }) }))).toEqual(['silent']);
    expect(kinds(tracker({ communication: null }))).toEqual(['never']);
  });

  it('puts two devices first, and tells a tracker without GPS', () => {
    const both = heard({ duplicateSince: ago(3), noGpsSince: ago(10) });
    expect(kinds(tracker({ communication: both }))).toEqual(['duplicate', 'online', 'noGps']);
  });

  it('warns of a device let in without a password, and of one that will be refused', () => {
    expect(kinds(tracker({ devicePasswordSet: false, allowUnauthenticated: true }))).toEqual([
      'online',
      'open',
    ]);
    expect(kinds(tracker({ devicePasswordSet: false, communication: null }))).toEqual([
      'never',
      'noPassword',
    ]);
    // flespi proves itself with the stream's secret; another provider's devices are not ours.
    expect(kinds(tracker({ devicePasswordSet: false, protocol: 'flespi' }))).toEqual(['online']);
    expect(kinds(tracker({ devicePasswordSet: false, provider: 'getrak' }))).toEqual(['online']);
  });

  it("asks no password of a makers' device, known by its IMEI on its protocol", () => {
    for (const protocol of ['gt06', 'suntech', 'teltonika', 'queclink'])
      expect(kinds(tracker({ protocol, devicePasswordSet: false }))).toEqual(['online']);
    expect(kinds(tracker({ protocol: 'wialon_ips', devicePasswordSet: false }))).toEqual([
      'online',
      'noPassword',
    ]);
  });
});
