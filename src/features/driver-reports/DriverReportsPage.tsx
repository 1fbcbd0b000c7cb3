/**
 * Relatos dos motoristas (/fleet-management/driver-reports): the problems drivers reported
 * about their vehicles from their own page, open ones first, with the photo when there is one;
 * whoever may change records marks one resolved.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { driverReportPhoto, listDriverReports, resolveDriverReport } from '../../api/driver-page';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import type { DriverProblemReport } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { driverPageText as text } from '../../i18n/driver-page';
import { localDateAndClock } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './DriverReportsPage.css';

function Photo({ report }: { report: DriverProblemReport }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let made: string | undefined;
    driverReportPhoto(report.id).then(
      (url) => {
        made = url;
        setSrc(url);
      },
      () => setSrc(undefined),
    );
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [report.id]);
  if (!src) return null;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      <img
        className="driver-report-photo"
        src={src}
        alt={text.reportPhotoAlt(report.plate ?? '—')}
      />
    </a>
  );
}

export function DriverReportsPage() {
  const canResolve = useCan('create_resources');
  const invalidate = useInvalidate();
  const reports = useQuery({ queryKey: keys.driverReports, queryFn: listDriverReports });
  useErrorToast(reports.error, text.reportsTitle);
  const [pending, setPending] = useState<string>();

  async function resolve(report: DriverProblemReport) {
    if (!requireOnline()) return;
    setPending(report.id);
    try {
      await resolveDriverReport(report.id);
      toast.success(text.resolvedToast);
      await invalidate(keys.driverReports);
    } catch (err) {
      await toastError(text.resolve, err);
    } finally {
      setPending(undefined);
    }
  }

  const columns: ColumnDef<DriverProblemReport>[] = [
    { id: 'when', label: text.reportWhen, render: (r) => localDateAndClock(r.reportedAt) },
    { id: 'driver', label: text.reportDriver, rowHeader: true, render: (r) => r.driverName },
    { id: 'vehicle', label: text.reportVehicle, render: (r) => r.plate ?? '—' },
    {
      id: 'text',
      label: text.reportText,
      render: (r) => <p className="driver-report-text">{r.text}</p>,
    },
    {
      id: 'photo',
      label: text.reportPhoto,
      render: (r) => (r.hasPhoto ? <Photo report={r} /> : '—'),
    },
    {
      id: 'state',
      label: text.state,
      render: (r) =>
        r.resolvedAt ? (
          <span className="badge badge-neutral">{text.reportResolved}</span>
        ) : canResolve ? (
          <Button variant="secondary" isPending={pending === r.id} onPress={() => void resolve(r)}>
            {text.resolve}
          </Button>
        ) : (
          <span className="badge badge-warning">{text.reportOpen}</span>
        ),
    },
  ];

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.reportsTitle}</h1>
      </div>
      <p className="muted">{text.reportsIntro}</p>
      <DataTable
        label={text.reportsTitle}
        columns={columns}
        rows={reports.data ?? []}
        empty={text.noReports}
        loading={reports.isPending}
        unavailable={isUnavailable(reports)}
      />
    </section>
  );
}
