/**
 * What an installer reads of a tracker at a glance, from what its device last told the server
 * (TrackerCommunication): whether it speaks now, since when it is silent or without GPS, whether
 * two devices speak for it, and whether it is let in without a password. Pure: the list, the
 * tracker's page and the tests share it.
 */
import { isImeiProtocol, type Tracker } from '../../contract';
import { NO_SIGNAL_MINUTES } from '../../lib/vehicle-state';

export type Tone = 'success' | 'warning' | 'danger' | 'neutral';

export interface StatusBadge {
  kind: 'online' | 'silent' | 'never' | 'noGps' | 'open' | 'noPassword' | 'duplicate';
  tone: Tone;
  /** The moment it speaks of (silent since, without GPS since, two devices since). */
  since?: string;
}

/** A tracker heard within NO_SIGNAL_MINUTES is online (the map's own rule for a vehicle). */
export function trackerBadges(tracker: Tracker, now = Date.now()): StatusBadge[] {
  const badges: StatusBadge[] = [];
  const c = tracker.communication;
  if (c?.duplicateSince)
    badges.push({ kind: 'duplicate', tone: 'danger', since: c.duplicateSince });
  if (!c) badges.push({ kind: 'never', tone: 'neutral' });
  else if (now - Date.parse(c.lastSeenAt) <= NO_SIGNAL_MINUTES * 60_000)
    badges.push({ kind: 'online', tone: 'success' });
  else badges.push({ kind: 'silent', tone: 'warning', since: c.lastSeenAt });
  if (c?.noGpsSince) badges.push({ kind: 'noGps', tone: 'warning', since: c.noGpsSince });
  if (tracker.allowUnauthenticated) badges.push({ kind: 'open', tone: 'warning' });
  // A device of ours with no password and not let in without one is refused on every message
  // (flespi proves itself with the stream's secret instead, the makers' devices by their IMEI
  // on their bound protocol).
  else if (
    tracker.provider === 'rastro' &&
    tracker.protocol !== 'flespi' &&
    !isImeiProtocol(tracker.protocol) &&
    !tracker.devicePasswordSet
  )
    badges.push({ kind: 'noPassword', tone: 'danger' });
  return badges;
}
