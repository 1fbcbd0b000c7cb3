/**
 * Dashboard (/dashboard): the figures a manager and a control room look at first — each
 * linking to the list behind it when the user may open it —, trackers by last communication
 * (per customer too), alerts per day by type and km per day over 30 days. Refreshes itself
 * every 30 s; 'Tela cheia' shows it alone on a control-room wall.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-aria-components';
import { dashboard } from '../../api/dashboard';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import {
  ACTIVITY_BUCKETS,
  ACTIVITY_COLORS,
  ACTIVITY_LABELS,
  ALERT_TYPE_LABELS,
  ALERT_TYPES,
  alertColor,
} from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { dashboardText } from '../../i18n/dashboard';
import { devices } from '../../i18n/devices';
import { t } from '../../i18n/pt-BR';
import { formatCurrency, formatDay } from '../../lib/format';
import { localClockSeconds } from '../../lib/local-time';
import { STATE_COLORS, STATE_LABELS } from '../../lib/vehicle-state';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import { EmptyState, Loading } from '../../ui/States';
import type { BarSeries } from './BarChart';
import { DrivingCard } from './DrivingCard';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../ui/VehicleBadge.css';
import './BarChart.css';
import './DashboardPage.css';

const BarChart = lazy(() => import('./BarChart').then((m) => ({ default: m.BarChart })));

export const REFRESH_MS = 30_000;
const SHORT_BUCKETS: Record<string, string> = {
  lastHour: '1 h',
  last24h: '24 h',
  last7d: '7 d',
  last30d: '30 d',
  over30d: '+30 d',
  never: 'Nunca',
};
const PALETTE = ['#7c3aed', '#0891b2', '#db2777', '#65a30d', '#9a3412', '#475569', '#0f766e'];
const dayTick = (day: string) => formatDay(day).slice(0, 5);

function Figure({
  label,
  value,
  href,
  detail,
}: {
  label: string;
  value: number | string;
  href?: string | undefined;
  detail?: ReactNode;
}) {
  const body = (
    <>
      <span className="figure-label">{label}</span>
      <strong className={`figure-value${typeof value === 'number' ? '' : ' figure-value-text'}`}>
        {typeof value === 'number' ? value.toLocaleString('pt-BR') : value}
      </strong>
      {detail && <span className="figure-detail">{detail}</span>}
    </>
  );
  return href ? (
    <Link href={href} className="figure figure-link" aria-label={`${label}: ${value}`}>
      {body}
    </Link>
  ) : (
    <div className="figure">{body}</div>
  );
}

/** A distinct colour per alert type in the chart: its SPEC colour first, if still free. */
function alertSeriesColors(types: string[]): Record<string, string> {
  const used = new Set<string>();
  const colors: Record<string, string> = {};
  let next = 0;
  for (const type of types) {
    let color: string = alertColor(type as (typeof ALERT_TYPES)[number]);
    if (used.has(color)) color = PALETTE[next++ % PALETTE.length] ?? color;
    used.add(color);
    colors[type] = color;
  }
  return colors;
}

function useWallMode(target: React.RefObject<HTMLElement | null>) {
  const [wall, setWall] = useState(false);
  useEffect(() => {
    const changed = () => {
      if (!document.fullscreenElement) setWall(false);
    };
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);
  const toggle = () => {
    if (wall) {
      setWall(false);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
      return;
    }
    setWall(true);
    // Without the Fullscreen API (or refused), the page still fills the window.
    void target.current?.requestFullscreen?.().catch(() => {});
  };
  return [wall, toggle] as const;
}

/** The states of 'Veículos agora', in the map legend's order, those never heard from last. */
const NOW_STATES = ['moving', 'idle', 'off', 'offline', 'never'] as const;

export function DashboardPage() {
  const [clientId, setClientId] = useSelectedClient();
  const page = useRef<HTMLElement>(null);
  const [wall, toggleWall] = useWallMode(page);
  const query = useQuery({
    queryKey: keys.dashboard(clientId),
    queryFn: () => dashboard(clientId),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  useErrorToast(query.error, dashboardText.fetchError);
  const access = {
    customers: useAccess('/management/customers').read,
    users: useAccess('/management/users').read,
    vehicles: useAccess('/management/vehicles').read,
    trackers: useAccess('/management/trackers').read,
    alerts: useAccess('/fleet-management/alerts/alerts-history').read,
    driving: useAccess('/reports/driving').read,
    maintenance: useAccess('/fleet-management/maintenance').read,
    documents: useAccess('/fleet-management/documents').read,
    refuels: useAccess('/fleet-management/refuels').read,
  };
  const data = query.data;

  const charts = useMemo(() => {
    if (!data) return null;
    const activity: BarSeries[] = ACTIVITY_BUCKETS.map((bucket, i) => ({
      label: ACTIVITY_LABELS[bucket],
      color: ACTIVITY_COLORS[bucket],
      values: ACTIVITY_BUCKETS.map((_, j) => (i === j ? data.activity.totals[bucket] : 0)),
    }));
    const days = data.alerts.perDay.map((d) => d.day);
    const types = ALERT_TYPES.filter((type) =>
      data.alerts.perDay.some((d) => (d.counts[type] ?? 0) > 0),
    );
    const colors = alertSeriesColors(types);
    const alerts: BarSeries[] = types.map((type) => ({
      label: ALERT_TYPE_LABELS[type],
      color: colors[type] ?? '#0b5cad',
      values: data.alerts.perDay.map((d) => d.counts[type] ?? 0),
    }));
    const km: BarSeries[] = [
      {
        label: t.screens.dashboardPage.km,
        color: '#0b5cad',
        values: data.distance.perDay.map((d) => d.km),
      },
    ];
    return { activity, days, alerts, km, kmDays: data.distance.perDay.map((d) => d.day) };
  }, [data]);

  const updated = query.dataUpdatedAt ? localClockSeconds(query.dataUpdatedAt) : null;

  return (
    <section
      ref={page}
      className={`page dashboard${wall ? ' dashboard-wall' : ''}`}
      aria-labelledby="page-title"
    >
      <div className="page-header">
        <h1 id="page-title">{dashboardText.title}</h1>
        <div className="dashboard-tools">
          <span className="muted" aria-live="polite">
            {/* Each part on one line: on a phone the second goes under the first whole. */}
            {updated && <span className="nowrap">{`${dashboardText.updatedAt(updated)} ·`}</span>}{' '}
            <span className="nowrap">{dashboardText.refreshEvery}</span>
          </span>
          <Button
            variant="secondary"
            onPress={() => void query.refetch()}
            isPending={query.isFetching}
          >
            {dashboardText.refresh}
          </Button>
          <Button variant="secondary" onPress={toggleWall}>
            {wall ? dashboardText.exitFullScreen : dashboardText.fullScreen}
          </Button>
        </div>
      </div>
      {!wall && (
        <div className="filters">
          <CustomerPicker value={clientId} onChange={setClientId} />
        </div>
      )}
      {isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{dashboardText.offline}</p>
        </EmptyState>
      ) : !data || !charts ? (
        <Loading label={t.screens.dashboardPage.carregando} />
      ) : (
        <>
          <DeviceWarnings
            withoutPassword={data.trackers.trackers.withoutPassword ?? 0}
            duplicated={data.trackers.trackers.duplicated ?? 0}
            href={access.trackers ? '/management/trackers' : undefined}
          />
          <div className="figures">
            <Figure
              label={dashboardText.customers}
              value={data.clients.total}
              href={access.customers ? '/management/customers' : undefined}
              detail={dashboardText.activeInactive(data.clients.active, data.clients.inactive)}
            />
            <Figure
              label={dashboardText.users}
              value={data.users.total}
              href={access.users ? '/management/users' : undefined}
              detail={dashboardText.activeInactive(data.users.active, data.users.inactive)}
            />
            <Figure
              label={dashboardText.vehicles}
              value={data.trackers.vehicles.total}
              href={access.vehicles ? '/management/vehicles' : undefined}
            />
            <Figure
              label={dashboardText.trackers}
              value={data.trackers.trackers.total}
              href={access.trackers ? '/management/trackers' : undefined}
              detail={dashboardText.activeInactive(
                data.trackers.trackers.active,
                data.trackers.trackers.inactive,
              )}
            />
            <Figure
              label={dashboardText.unacknowledged}
              value={data.alerts.unacknowledged}
              href={
                access.alerts
                  ? '/fleet-management/alerts/alerts-history?acknowledged=false'
                  : undefined
              }
            />
            <Figure
              label={dashboardText.maintenanceOverdue}
              value={data.upkeep.maintenanceOverdue}
              href={access.maintenance ? '/fleet-management/maintenance' : undefined}
            />
            <Figure
              label={dashboardText.documentsExpiring}
              value={data.upkeep.documentsExpiring}
              href={access.documents ? '/fleet-management/documents' : undefined}
              detail={dashboardText.documentsExpired(data.upkeep.documentsExpired)}
            />
            <Figure
              label={dashboardText.fuelThisMonth}
              value={formatCurrency(data.upkeep.fuelThisMonth)}
              href={access.refuels ? '/fleet-management/refuels' : undefined}
              detail={dashboardText.fuelLastMonth(formatCurrency(data.upkeep.fuelLastMonth))}
            />
            <Link
              href="/"
              className="figure figure-link figure-states"
              aria-label={dashboardText.now}
            >
              <span className="figure-label">{dashboardText.now}</span>
              {/* The fleet at a glance: each state's share of the vehicles (the list says it). */}
              <span className="state-bar" aria-hidden="true">
                {NOW_STATES.map(
                  (state) =>
                    data.trackers.vehicles.now[state] > 0 && (
                      <span
                        key={state}
                        className={`state-bar-${state}`}
                        style={{
                          flexGrow: data.trackers.vehicles.now[state],
                          background: state === 'never' ? undefined : STATE_COLORS[state],
                        }}
                      />
                    ),
                )}
              </span>
              <ul className="state-counts">
                {(['moving', 'idle', 'off', 'offline'] as const).map((state) => (
                  <li key={state}>
                    <span
                      className="state-dot"
                      style={{ background: STATE_COLORS[state] }}
                      aria-hidden="true"
                    />
                    <span>{STATE_LABELS[state]}</span>
                    <strong>{data.trackers.vehicles.now[state]}</strong>
                  </li>
                ))}
                <li>
                  <span className="state-dot state-dot-never" aria-hidden="true" />
                  <span>{dashboardText.never}</span>
                  <strong>{data.trackers.vehicles.now.never}</strong>
                </li>
              </ul>
            </Link>
          </div>
          <div className="charts">
            <article className="chart-card" aria-labelledby="chart-activity">
              <h2 id="chart-activity">{dashboardText.activity}</h2>
              <Suspense fallback={<div className="bar-chart-plot" />}>
                <BarChart
                  label={dashboardText.activity}
                  categories={[...ACTIVITY_BUCKETS]}
                  series={charts.activity}
                  tickLabel={(bucket) => SHORT_BUCKETS[bucket] ?? bucket}
                  tickSpace={24}
                />
              </Suspense>
              {data.activity.byClient.length > 1 && (
                <div className="scroll-x">
                  <table className="plain-table activity-table">
                    <caption className="visually-hidden">{dashboardText.activityByClient}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{dashboardText.customer}</th>
                        {ACTIVITY_BUCKETS.map((bucket) => (
                          <th key={bucket} scope="col" title={ACTIVITY_LABELS[bucket]}>
                            {SHORT_BUCKETS[bucket]}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {data.activity.byClient.map((row) => (
                        <tr key={row.clientId}>
                          <th scope="row">{row.name}</th>
                          {ACTIVITY_BUCKETS.map((bucket) => (
                            <td key={bucket}>{row[bucket]}</td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </article>
            <article className="chart-card" aria-labelledby="chart-alerts">
              <h2 id="chart-alerts">{dashboardText.alertsPerDay}</h2>
              {charts.alerts.length ? (
                <Suspense fallback={<div className="bar-chart-plot" />}>
                  <BarChart
                    label={dashboardText.alertsPerDay}
                    categories={charts.days}
                    series={charts.alerts}
                    tickLabel={dayTick}
                    legend
                  />
                </Suspense>
              ) : (
                <p className="muted">{dashboardText.noAlerts}</p>
              )}
            </article>
            <article className="chart-card" aria-labelledby="chart-km">
              <h2 id="chart-km">{dashboardText.kmPerDay}</h2>
              <Suspense fallback={<div className="bar-chart-plot" />}>
                <BarChart
                  label={dashboardText.kmPerDay}
                  categories={charts.kmDays}
                  series={charts.km}
                  unit="km"
                  tickLabel={dayTick}
                />
              </Suspense>
            </article>
            {access.driving && <DrivingCard clientId={clientId} href="/reports/driving" />}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Trackers an operator must act on: let in without a password (any device that knows the
 * identifier speaks for them, and they take no command) or with two devices speaking for one.
 */
function DeviceWarnings({
  withoutPassword,
  duplicated,
  href,
}: {
  withoutPassword: number;
  duplicated: number;
  href: string | undefined;
}) {
  if (withoutPassword === 0 && duplicated === 0) return null;
  const words = devices.dashboard;
  return (
    <div className="dashboard-warnings" role="note">
      {duplicated > 0 && <p className="dashboard-warning-danger">{words.duplicated(duplicated)}</p>}
      {withoutPassword > 0 && <p>{words.withoutPassword(withoutPassword)}</p>}
      {href && <Link href={href}>{words.see}</Link>}
    </div>
  );
}
