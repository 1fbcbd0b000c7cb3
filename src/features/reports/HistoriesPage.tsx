/**
 * Históricos (/reports/histories): a vehicle's route over a period, played back on the map.
 * The history arrives as a stream: the screen says how many positions came in meanwhile.
 */
import { useEffect } from 'react';
import { reportsApi } from '../../api/reports';
import { ROUTE_LABELS } from '../../i18n/pt-BR';
import { HistoryView, prefetchChart } from './HistoryView';
import { StreamedReportPage, useStreamedReport } from './StreamedReport';

export function HistoriesPage() {
  const report = useStreamedReport('history', reportsApi.history);
  useEffect(prefetchChart, []);
  return (
    <StreamedReportPage
      title={ROUTE_LABELS.histories}
      report={report}
      isEmpty={(history) => history.positions.length === 0}
    >
      {(history) => <HistoryView report={history} />}
    </StreamedReportPage>
  );
}
