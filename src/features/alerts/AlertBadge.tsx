/**
 * The top bar's alert badge: how many alerts the user sees are not acknowledged yet, linking
 * to the history. The count is one cheap read (limit 1, its `total`), refreshed by the alert
 * listener whenever an alert arrives or an acknowledgement is made.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-aria-components';
import { listAlerts } from '../../api/alerts';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { t } from '../../i18n/pt-BR';
import { BellIcon } from '../../ui/icons';
import '../../ui/Button.css';
import './AlertBadge.css';

export function AlertBadge() {
  const open = useQuery({
    queryKey: keys.openAlertCount,
    queryFn: () => listAlerts({ acknowledged: false, limit: 1 }),
    ...LOOKUP_QUERY,
    staleTime: 60_000,
  });
  const count = open.data?.total ?? 0;
  return (
    <Link
      href="/fleet-management/alerts/alerts-history"
      className="icon-button alert-badge"
      aria-label={t.alerts.badge(count)}
    >
      <BellIcon />
      {count > 0 && (
        <span className="alert-badge-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
