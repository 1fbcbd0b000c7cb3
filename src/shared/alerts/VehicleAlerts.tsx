/**
 * The map popup's latest alerts of a vehicle (online only: the history is not mirrored); the
 * popup's actions link to the vehicle's history (VehicleAlertsLink).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-aria-components';
import { listAlerts } from '../../api/alerts';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { t } from '../../i18n/pt-BR';
import { timeSince } from '../../lib/clock';
import { AlertTypeChip } from './AlertTypeChip';
import '../../ui/Button.css';
import '../../ui/badge.css';
import '../../ui/text.css';
import './VehicleAlerts.css';

export function VehicleAlerts({ vehicleId, now }: { vehicleId: string; now: number }) {
  const latest = useQuery({
    queryKey: keys.vehicleAlerts(vehicleId),
    queryFn: () => listAlerts({ vehicleId, limit: 2, sort: 'createdAt', order: 'desc' }),
    ...LOOKUP_QUERY,
    staleTime: 15_000,
  });
  if (!latest.data) return null;
  return (
    <section className="popup-alerts" aria-label={t.alerts.latest}>
      <h3>{t.alerts.latest}</h3>
      {latest.data.items.length === 0 ? (
        <p className="muted">{t.alerts.noneLatest}</p>
      ) : (
        <ul className="popup-alerts-list">
          {latest.data.items.map((alert) => (
            <li key={alert.id}>
              <AlertTypeChip type={alert.type} />
              <span className="muted">{timeSince(alert.fixTime ?? alert.createdAt, now)}</span>
              {!alert.acknowledgedAt && (
                <span className="badge badge-warning">{t.alerts.open}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function VehicleAlertsLink({ vehicleId }: { vehicleId: string }) {
  return (
    <Link
      href={`/fleet-management/alerts/alerts-history?vehicleId=${vehicleId}`}
      className="btn btn-ghost"
    >
      {t.toast.seeAlerts}
    </Link>
  );
}
