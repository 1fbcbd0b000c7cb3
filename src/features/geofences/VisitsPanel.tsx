/**
 * A geofence's visits (`by-fence/{geofenceId}`): which vehicles entered it, when they left and
 * how long they stayed, over a period chosen here (today, yesterday, the last 7 or 30 days).
 * Crossings are the alert engine's, so the list agrees with the geofence alerts.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import type { GeofenceVisit } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { geofencesText } from '../../i18n/geofences';
import { t } from '../../i18n/pt-BR';
import { formatShort, formatTime, periodOf, shiftDay, today } from '../../lib/day-range';
import { formatDuration } from '../../lib/format';
import { DataTable } from '../../ui/DataTable';
import { Pagination, useRowsPage } from '../../ui/Pagination';
import { Select } from '../../ui/Select';
import { Loading } from '../../ui/States';
import './VisitsPanel.css';

const RANGES = {
  today: { label: t.screens.visitsPanel.hoje, days: 0, end: 0 },
  yesterday: { label: t.screens.visitsPanel.ontem, days: 0, end: -1 },
  week: { label: t.screens.visitsPanel.ultimos7Dias, days: 6, end: 0 },
  month: { label: t.screens.visitsPanel.ultimos30Dias, days: 29, end: 0 },
} as const;
type RangeKey = keyof typeof RANGES;

/** Visits a page: a busy yard sees hundreds a month, which scrolled in a box inside the panel. */
const VISITS_PER_PAGE = 10;

/** '19/11 17:25 → 17:55', '19/11 23:40 → 20/11 00:10', 'antes do período → ainda dentro'. */
function whenText(visit: GeofenceVisit): string {
  const entered = visit.insideAtStart ? geofencesText.before : formatShort(visit.enteredAt);
  if (!visit.exitedAt) return `${entered} → ${geofencesText.stillInside}`;
  const exited = formatShort(visit.exitedAt);
  const sameDay = !visit.insideAtStart && exited.slice(0, 5) === entered.slice(0, 5);
  return `${entered} → ${sameDay ? formatTime(visit.exitedAt).slice(0, 5) : exited}`;
}

export function VisitsPanel({ geofenceId }: { geofenceId: string }) {
  const [range, setRange] = useState<RangeKey>('week');
  const chosen = RANGES[range];
  const last = shiftDay(today(), chosen.end);
  const period = periodOf({ from: shiftDay(last, -chosen.days), to: last });
  const query = useQuery({
    queryKey: keys.report('by-fence', [geofenceId], period.beginAt, period.endAt),
    queryFn: ({ signal }) => reportsApi.byFence(geofenceId, period, signal),
    staleTime: 60_000,
  });
  useErrorToast(query.error, geofencesText.visitsError);
  const report = query.data;
  const rows = (report?.visits ?? [])
    .map((visit, i) => ({ ...visit, id: `${visit.vehicleId}-${i}` }))
    .reverse();
  // Another period starts at its first page.
  const { page, rows: shown, setPage } = useRowsPage(rows, VISITS_PER_PAGE, range);
  return (
    <section className="geofence-visits" aria-labelledby="geofence-visits-title">
      <h2 id="geofence-visits-title">{geofencesText.visits}</h2>
      <Select
        label={geofencesText.visitsPeriod}
        options={Object.entries(RANGES).map(([value, r]) => ({ value, label: r.label }))}
        value={range}
        onChange={(value) => setRange(value as RangeKey)}
      />
      {query.isPending ? (
        <Loading label={geofencesText.visitsLoading} />
      ) : report ? (
        <>
          {report.totals.length > 0 && (
            <ul className="visit-totals" aria-label={geofencesText.visitsTotals}>
              {report.totals.map((total) => (
                <li key={total.vehicleId}>
                  <strong>{total.plate}</strong>
                  <span>
                    {geofencesText.entries(total.entries)} · {formatDuration(total.insideSeconds)}{' '}
                    {geofencesText.inside}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <DataTable
            label={`${geofencesText.visits}: ${RANGES[range].label}`}
            rows={shown}
            empty={geofencesText.noVisits}
            columns={[
              {
                id: 'plate',
                label: geofencesText.vehicle,
                rowHeader: true,
                render: (r: GeofenceVisit) => r.plate,
              },
              {
                id: 'when',
                label: geofencesText.when,
                render: (r: GeofenceVisit) => whenText(r),
              },
              {
                id: 'stay',
                label: geofencesText.stay,
                render: (r: GeofenceVisit) => formatDuration(r.durationSeconds),
              },
            ]}
          />
          {rows.length > VISITS_PER_PAGE && (
            <Pagination
              page={page}
              limit={VISITS_PER_PAGE}
              total={rows.length}
              onPageChange={setPage}
              label={`${t.list.paging}: ${geofencesText.visits}`}
            />
          )}
        </>
      ) : null}
    </section>
  );
}
