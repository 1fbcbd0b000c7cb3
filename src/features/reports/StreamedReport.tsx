/**
 * What the one-vehicle streamed reports share (Históricos, Posições): the choice kept in the
 * address, the read that counts the positions as they arrive, and the frame around the
 * result — title, filters, progress, the paused read, "choose a vehicle", "nothing in the
 * period". Each screen only says what it reads and how it shows it.
 */
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { keys } from '../../api/keys';
import type { Period } from '../../api/reports';
import { useErrorToast } from '../../hooks/feedback';
import { reportsText } from '../../i18n/reports';
import { periodOf } from '../../lib/day-range';
import { INTERVAL_LIMITS } from '../../lib/report-period';
import { EmptyState, Loading } from '../../ui/States';
import { ReportFilters } from './ReportFilters';
import { ReportPaused } from './ReportPaused';
import { type ReportChoice, useReportParams } from './useReportParams';
import '../../ui/page.css';

type Read<T> = (
  vehicleId: string,
  period: Period,
  onProgress: (progress: { rows: number }) => void,
  signal: AbortSignal,
) => Promise<T>;

export interface StreamedReport<T> {
  choice: ReportChoice;
  submitted: boolean;
  choose: (next: ReportChoice) => void;
  query: UseQueryResult<T>;
  /** Positions received so far by the read under way. */
  received: number;
}

/** The chosen vehicle's report of one kind, read as a stream once the form was sent. */
export function useStreamedReport<T>(kind: string, read: Read<T>): StreamedReport<T> {
  const { choice, submitted, choose } = useReportParams();
  const [received, setReceived] = useState(0);
  const vehicleId = choice.ids[0];
  const period = periodOf(choice.range);
  const query = useQuery({
    queryKey: keys.report(kind, choice.ids, period.beginAt, period.endAt),
    queryFn: ({ signal }) => {
      setReceived(0);
      return read(vehicleId ?? '', period, (p) => setReceived(p.rows), signal);
    },
    enabled: submitted && Boolean(vehicleId),
    staleTime: 60_000,
  });
  useErrorToast(query.error, reportsText.fetchError);
  return { choice, submitted, choose, query, received };
}

/** The page around a streamed report; `children` shows a result that has positions. */
export function StreamedReportPage<T>({
  title,
  className,
  report,
  isEmpty,
  children,
}: {
  title: ReactNode;
  className?: string;
  report: StreamedReport<T>;
  isEmpty: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { query, choice, choose, submitted, received } = report;
  const data = query.data;
  return (
    <section className={`page page-report ${className ?? ''}`.trim()} aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{title}</h1>
      </div>
      <ReportFilters
        maxHours={INTERVAL_LIMITS.points}
        initial={choice}
        onSubmit={choose}
        busy={query.isFetching}
      />
      {query.isFetching && <Loading label={reportsText.received(received)} />}
      <ReportPaused query={query} />
      {!submitted && <EmptyState title={reportsText.chooseVehicle} />}
      {data !== undefined && !query.isFetching && isEmpty(data) && (
        <EmptyState title={reportsText.emptyPeriod} />
      )}
      {data !== undefined && !isEmpty(data) && children(data)}
    </section>
  );
}
