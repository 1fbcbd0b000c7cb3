/**
 * A tracker's communication as an installer reads it: badges in the list (online, silent
 * since…, without GPS since…, "Sem senha", two devices) and, on its page, what came last, from
 * where, why it was last refused and how many fix-time conflicts it had.
 */
import { isDeviceProtocol, isImeiProtocol, type Tracker } from '../../contract';
import { devices } from '../../i18n/devices';
import { timeSince } from '../../lib/clock';
import { localDateTime, localDayAndClock } from '../../lib/local-time';
import { type StatusBadge, trackerBadges } from './tracker-status';
import '../../ui/badge.css';
import '../../ui/page.css';
import './TrackerStatus.css';

const text = devices.status;

function badgeText(badge: StatusBadge): string {
  const when = badge.since ? localDayAndClock(badge.since) : '';
  switch (badge.kind) {
    case 'online':
      return text.online;
    case 'silent':
      return text.silentSince(when);
    case 'never':
      return text.neverBadge;
    case 'noGps':
      return text.noGpsSince(when);
    case 'open':
      return text.withoutPassword;
    case 'noPassword':
      return text.passwordMissing;
    case 'duplicate':
      return text.duplicate;
  }
}

export function TrackerBadges({ tracker }: { tracker: Tracker }) {
  return (
    <span className="badges">
      {trackerBadges(tracker).map((badge) => (
        <span key={badge.kind} className={`badge badge-${badge.tone}`}>
          {badgeText(badge)}
        </span>
      ))}
    </span>
  );
}

/** The list's 'Última comunicação' cell: how long ago, and what came. */
export function LastCommunication({ tracker }: { tracker: Tracker }) {
  const c = tracker.communication;
  if (!c) return <span className="muted">—</span>;
  const what =
    c.lastKind === 'refused' && c.lastRefusal
      ? `${text.kinds.refused}: ${text.refusals[c.lastRefusal] ?? c.lastRefusal}`
      : (text.kinds[c.lastKind] ?? c.lastKind);
  return (
    <span className="tracker-last">
      <time dateTime={c.lastSeenAt} title={localDateTime(c.lastSeenAt)}>
        {timeSince(c.lastSeenAt)}
      </time>
      <span className="muted">{what}</span>
    </span>
  );
}

export function protocolLabel(protocol: string | null | undefined): string {
  return isDeviceProtocol(protocol) ? devices.protocolShort[protocol] : '—';
}

/** The tracker's page: its communication in full. */
export function TrackerCommunicationPanel({ tracker }: { tracker: Tracker }) {
  const c = tracker.communication;
  return (
    <section className="panel" aria-labelledby="tracker-communication">
      <h2 id="tracker-communication">{text.title}</h2>
      <TrackerBadges tracker={tracker} />
      {tracker.allowUnauthenticated && (
        <p className="tracker-warning" role="note">
          {devices.noPasswordWarning}
        </p>
      )}
      {c?.duplicateSince && (
        <p className="tracker-warning" role="alert">
          {text.duplicateDetail(localDateTime(c.duplicateSince), c.duplicateAddresses.join(', '))}
        </p>
      )}
      {c ? (
        <dl className="tracker-facts">
          <dt>{text.lastSeen}</dt>
          <dd>
            {localDateTime(c.lastSeenAt)} ({timeSince(c.lastSeenAt)})
          </dd>
          <dt>{text.what}</dt>
          <dd>
            {text.kinds[c.lastKind] ?? c.lastKind}
            {c.lastProtocol ? ` · ${protocolLabel(c.lastProtocol)}` : ''}
          </dd>
          <dt>{text.address}</dt>
          <dd>{c.lastAddress ?? '—'}</dd>
          <dt>{text.authenticated}</dt>
          <dd>
            {isImeiProtocol(tracker.protocol)
              ? text.byImei
              : c.authenticated === null
                ? '—'
                : c.authenticated
                  ? text.yes
                  : text.no}
          </dd>
          <dt>{text.lastFix}</dt>
          <dd>{c.lastFixAt ? localDateTime(c.lastFixAt) : '—'}</dd>
          {c.lastRefusal && c.lastRefusedAt && (
            <>
              <dt>{text.lastRefusal}</dt>
              <dd>
                {text.refusals[c.lastRefusal] ?? c.lastRefusal} · {localDateTime(c.lastRefusedAt)}
              </dd>
            </>
          )}
          <dt>{text.conflicts}</dt>
          <dd>
            {c.conflicts}
            {c.lastConflictAt ? ` · ${localDateTime(c.lastConflictAt)}` : ''}
          </dd>
        </dl>
      ) : (
        <p className="muted">{text.never}</p>
      )}
    </section>
  );
}
