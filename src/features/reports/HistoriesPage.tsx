/**
 * Históricos (/reports/histories): a vehicle's route over a period, played back on the map.
 * The history arrives as a stream: the screen says how many positions came in meanwhile.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import { useErrorToast } from '../../hooks/feedback';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { periodOf } from '../../lib/day-range';
import { INTERVAL_LIMITS } from '../../lib/report-period';
import { EmptyState, Loading } from '../../ui/States';
import { HistoryView, prefetchChart } from './HistoryView';
import { ReportFilters } from './ReportFilters';
import { ReportPaused } from './ReportPaused';
import { useReportParams } from './useReportParams';

export function HistoriesPage() {
  const { choice, submitted, choose } = useReportParams();
  const [received, setReceived] = useState(0);
  useEffect(prefetchChart, []);
  const vehicleId = choice.ids[0];
  const period = periodOf(choice.range);
  const query = useQuery({
    queryKey: keys.report('history', choice.ids, period.beginAt, period.endAt),
    queryFn: ({ signal }) => {
      setReceived(0);
      return reportsApi.history(vehicleId ?? '', period, (p) => setReceived(p.rows), signal);
    },
    enabled: submitted && Boolean(vehicleId),
    staleTime: 60_000,
  });
  useErrorToast(query.error, t.reports.fetchError);
  const report = query.data;
  return (
    <section className="page page-report" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{ROUTE_LABELS.histories}</h1>
      </div>
      <ReportFilters
        maxHours={INTERVAL_LIMITS.points}
        initial={choice}
        onSubmit={choose}
        busy={query.isFetching}
      />
      {query.isFetching && <Loading label={t.reports.received(received)} />}
      <ReportPaused query={query} />
      {!submitted && <EmptyState title={t.reports.chooseVehicle} />}
      {report && !query.isFetching && report.positions.length === 0 && (
        <EmptyState title={t.reports.emptyPeriod} />
      )}
      {report && report.positions.length > 0 && <HistoryView report={report} />}
    </section>
  );
}
