/**
 * Relatórios (/reports): choose a type, the vehicles or drivers and the period; the report is
 * recorded in the list (sortable by name, type, request and update time) and opened — in its
 * own screen (histories, journeys, positions, distances) or here (drivers, vehicle summary).
 * With a file format the report is downloaded with its progress (and can be
 * cancelled) or sent by e-mail in the background; the list then shows how that went.
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form, Link } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { reportsApi } from '../../api/reports';
import {
  hasPermission,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportRequest,
  type ReportType,
} from '../../contract';
import { toastError, useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { type DayRange, formatDateTime, periodOf, shiftDay, today } from '../../lib/day-range';
import { INTERVAL_LIMITS, periodProblem, reportDay } from '../../lib/report-period';
import { areasFor } from '../../shared/areas/areas';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { useDriverOptions } from '../../shared/drivers/useDriverOptions';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { type ColumnDef, DataTable, type Sort } from '../../ui/DataTable';
import { toast } from '../../ui/feedback/toasts';
import { emailListCheck } from '../../ui/field-checks';
import { MultiSelect } from '../../ui/MultiSelect';
import { Pagination } from '../../ui/Pagination';
import { Select } from '../../ui/Select';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import { DownloadProgress, useFileDownload } from './FileDownload';
import { downloadCall, type FileChoice } from './files';
import { PeriodFields } from './ReportFilters';
import { ReportResults } from './ReportResults';
import '../../ui/DataTable.css';
import '../../ui/page.css';
import './reports.css';
import './ReportsPage.css';

const SCREENS: Partial<Record<ReportType, string>> = {
  HISTORY: '/reports/histories',
  POSITIONS: '/reports/positions',
  TRIPS: '/reports/journeys',
  DISTANCE: '/reports/distances',
};
const SINGLE: ReportType[] = ['HISTORY', 'POSITIONS'];
/**
 * What this form asks for. The fleet's costs, the drivers' ranking and their working day have
 * screens of their own (with their files) and go by e-mail as automated reports.
 */
const FORM_TYPES = REPORT_TYPES.filter(
  (type) => type !== 'FLEET_COSTS' && type !== 'DRIVING' && type !== 'JORNADA',
);
const limitOf = (type: ReportType) =>
  type === 'DISTANCE' || type === 'light_final_report'
    ? INTERVAL_LIMITS.totals
    : INTERVAL_LIMITS.points;

/** The days of a recorded request (its end is the start of the day after the last). */
function rangeOf(request: ReportRequest): DayRange {
  return {
    from: reportDay(Date.parse(request.beginAt)),
    to: reportDay(Date.parse(request.endAt) - 1),
  };
}

function RequestForm({ onDone }: { onDone: (request: ReportRequest) => void }) {
  const [clientId, setClientId] = useSelectedClient();
  const {
    options: vehicles,
    loading: vehiclesLoading,
    unavailable: vehiclesUnavailable,
  } = useVehicleChoices(clientId);
  const drivers = useDriverOptions(clientId, { withTag: true });
  const [type, setType] = useState<ReportType>('TRIPS');
  const [ids, setIds] = useState<string[]>([]);
  const [name, setName] = useState('');
  const day = today();
  const [range, setRange] = useState<DayRange>({ from: shiftDay(day, -6), to: day });
  const [problem, setProblem] = useState<string>();
  const [format, setFormat] = useState<FileChoice>('screen');
  const [delivery, setDelivery] = useState<'download' | 'email'>('download');
  const [emails, setEmails] = useState('');
  const invalidate = useInvalidate();
  const file = useFileDownload(() => void invalidate(['reports', 'requests']));
  const create = useMutation({
    mutationFn: reportsApi.request,
    onSuccess: (request) => {
      toast.success(reportsText.requested);
      void invalidate(['reports', 'requests']);
      onDone(request);
    },
    onError: (error) => void toastError(reportsText.fetchError, error),
  });
  const forDrivers = type === 'DRIVERS';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const period = periodOf(range);
    const reason =
      ids.length === 0
        ? forDrivers
          ? t.screens.reportsPage.escolhaAoMenosUm2
          : t.screens.reportsPage.escolhaAoMenosUm
        : periodProblem(period.beginAt, period.endAt, limitOf(type));
    setProblem(reason);
    if (reason) return;
    if (format !== 'screen') {
      const call = downloadCall(
        type,
        SINGLE.includes(type) ? ids.slice(0, 1) : ids,
        period,
        format,
        { method: delivery, emails },
      );
      void file.start(call.path, call.params);
      return;
    }
    create.mutate({
      reportType: type,
      ...(forDrivers
        ? { driverIds: ids }
        : { vehicleIds: SINGLE.includes(type) ? ids.slice(0, 1) : ids }),
      ...period,
      ...(name.trim() ? { name: name.trim() } : {}),
    });
  };
  return (
    <Form
      className="report-filters"
      onSubmit={submit}
      aria-label={t.screens.reportsPage.novoRelatorio}
    >
      <Select
        label={reportsText.type}
        options={FORM_TYPES.map((value) => ({ label: REPORT_TYPE_LABELS[value], value }))}
        value={type}
        onChange={(value) => {
          setType(value as ReportType);
          setIds([]);
        }}
      />
      <CustomerPicker value={clientId} onChange={setClientId} />
      {forDrivers ? (
        <MultiSelect
          label={reportsText.drivers}
          options={drivers}
          value={ids}
          onChange={setIds}
          noun={[t.screens.reportsPage.motorista, t.screens.reportsPage.motoristas]}
        />
      ) : SINGLE.includes(type) ? (
        <Select
          label={reportsText.vehicle}
          options={vehicles}
          value={ids[0] ?? null}
          onChange={(id) => setIds([id])}
          isLoading={vehiclesLoading}
          isUnavailable={vehiclesUnavailable}
        />
      ) : (
        <MultiSelect
          label={reportsText.vehicles}
          options={vehicles}
          value={ids}
          onChange={setIds}
          noun={[t.screens.reportsPage.veiculo, t.screens.reportsPage.veiculos]}
          isLoading={vehiclesLoading}
          isUnavailable={vehiclesUnavailable}
        />
      )}
      <PeriodFields range={range} onChange={setRange} />
      <TextField label={`${reportsText.name} (opcional)`} value={name} onChange={setName} />
      <Select
        label={t.reportFiles.format}
        options={(['screen', 'excel', 'pdf', 'kml'] as const)
          .filter((f) => f !== 'kml' || type === 'HISTORY')
          .map((value) => ({ label: t.reportFiles.formats[value], value }))}
        value={format === 'kml' && type !== 'HISTORY' ? 'screen' : format}
        onChange={(value) => setFormat(value as FileChoice)}
      />
      {format !== 'screen' && (
        <Select
          label={t.reportFiles.delivery}
          options={(['download', 'email'] as const).map((value) => ({
            label: t.reportFiles.deliveries[value],
            value,
          }))}
          value={delivery}
          onChange={(value) => setDelivery(value === 'email' ? 'email' : 'download')}
        />
      )}
      {format !== 'screen' && delivery === 'email' && (
        <TextField
          label={t.reportFiles.emails}
          // A list ('a@x.com, b@y.com'): the browser's own e-mail check refuses a comma.
          inputMode="email"
          value={emails}
          validate={emailListCheck}
          onChange={setEmails}
          description={t.reportFiles.emailsHelp}
        />
      )}
      <Button
        type="submit"
        variant="primary"
        isPending={create.isPending}
        isDisabled={file.progress !== null}
      >
        {reportsText.generate}
      </Button>
      {problem && <FormMessage kind="error">{problem}</FormMessage>}
      {file.progress && <DownloadProgress progress={file.progress} onCancel={file.cancel} />}
    </Form>
  );
}

export function ReportsPage() {
  const navigate = useNavigate();
  const role = useSession()?.user.role;
  const [sort, setSort] = useState<Sort>({ column: 'createdAt', direction: 'desc' });
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const [shown, setShown] = useState<ReportRequest | null>(null);
  const invalidate = useInvalidate();
  const params = { page, limit, sort: sort.column, order: sort.direction };
  const list = useQuery({
    queryKey: keys.reportRequests(params),
    queryFn: () => reportsApi.requests(params),
    placeholderData: keepPreviousData,
    // Files on their way by e-mail: the list follows them until they are sent or fail.
    refetchInterval: (query) =>
      query.state.data?.reports.some((r) => r.status === 'pending' || r.status === 'processing')
        ? 3000
        : false,
  });
  useErrorToast(list.error, reportsText.fetchError);
  const me = useSession()?.user.id;
  // Anyone removes their own requests; another's, only a level that may remove records.
  const mayRemove = (request: ReportRequest) =>
    request.userId === me || (role !== undefined && hasPermission(role, 'delete_resources'));
  const [removing, setRemoving] = useState<ReportRequest | null>(null);
  const remove = useMutation({
    mutationFn: reportsApi.removeRequest,
    onSuccess: (message) => {
      setRemoving(null);
      toast.success(message);
      void invalidate(['reports', 'requests']);
    },
    onError: (error) => void toastError(reportsText.removeError, error),
  });
  const open = (request: ReportRequest) => {
    const screen = SCREENS[request.reportType];
    if (!screen) {
      setShown(request);
      return;
    }
    const range = rangeOf(request);
    void navigate(
      `${screen}?vehicles=${request.vehicleIds.join(',')}&from=${range.from}&to=${range.to}`,
    );
  };
  const columns: ColumnDef<ReportRequest>[] = [
    { id: 'name', label: reportsText.name, sortable: true, rowHeader: true, render: (r) => r.name },
    {
      id: 'reportType',
      label: reportsText.type,
      sortable: true,
      render: (r) =>
        [
          REPORT_TYPE_LABELS[r.reportType],
          r.format ? (t.reportFiles.formats[r.format as FileChoice] ?? r.format) : '',
          r.deliveryMethod === 'email' ? t.reportFiles.deliveries.email.toLowerCase() : '',
        ]
          .filter(Boolean)
          .join(' · '),
    },
    {
      id: 'period',
      label: reportsText.period,
      render: (r) => {
        const range = rangeOf(r);
        const day = (d: string) => d.split('-').reverse().join('/');
        return range.from === range.to ? day(range.from) : `${day(range.from)} a ${day(range.to)}`;
      },
    },
    {
      id: 'status',
      label: reportsText.status,
      render: (r) =>
        r.status === 'failed' && r.error ? (
          <span className="last-run-failed">{t.reportFiles.failed(r.error)}</span>
        ) : (
          (reportsText.statuses[r.status] ?? r.status)
        ),
    },
    {
      id: 'createdAt',
      label: reportsText.createdAt,
      sortable: true,
      render: (r) => formatDateTime(r.createdAt),
    },
    {
      id: 'updatedAt',
      label: reportsText.updatedAt,
      sortable: true,
      render: (r) => formatDateTime(r.updatedAt),
    },
    {
      id: 'actions',
      label: t.list.actions,
      render: (r) => (
        <span className="row-actions">
          <Button variant="secondary" onPress={() => open(r)}>
            {reportsText.open}
          </Button>
          {mayRemove(r) && (
            <Button
              variant="ghost"
              aria-label={`${reportsText.remove} ${r.name}`}
              onPress={() => setRemoving(r)}
            >
              {reportsText.remove}
            </Button>
          )}
        </span>
      ),
    },
  ];
  const sections = role ? (areasFor(role).find((a) => a.path === '/reports')?.children ?? []) : [];
  return (
    <section className="page page-report" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.screens.reportsPage.relatorios}</h1>
      </div>
      <ul className="report-links" aria-label={t.screens.reportsPage.areasDeRelatorios}>
        {sections.map((child) => (
          <li key={child.path}>
            <Link href={child.path} className="report-link">
              {child.label}
            </Link>
          </li>
        ))}
      </ul>
      <h2 className="section-title">{t.screens.reportsPage.novoRelatorio}</h2>
      <RequestForm onDone={open} />
      {shown && <ReportResults request={shown} onClose={() => setShown(null)} />}
      <section className="report-section report-requests" aria-labelledby="requests-title">
        <h2 id="requests-title">{reportsText.requests}</h2>
        <DataTable
          label={reportsText.requests}
          columns={columns}
          rows={list.data?.reports ?? []}
          sort={sort}
          onSortChange={(next) => {
            setSort(next);
            setPage(1);
          }}
          empty={reportsText.noRequests}
          loading={list.isLoading}
          unavailable={isUnavailable(list)}
        />
        <Pagination
          page={page}
          limit={limit}
          total={list.data?.total ?? 0}
          unknown={isUnavailable(list)}
          onPageChange={setPage}
          onLimitChange={(next) => {
            setLimit(next);
            setPage(1);
          }}
        />
        <ConfirmDialog
          title={reportsText.confirmRemove}
          confirmLabel={reportsText.remove}
          isOpen={removing !== null}
          onCancel={() => setRemoving(null)}
          onConfirm={() => removing && remove.mutate(removing.id)}
          danger
          pending={remove.isPending}
        >
          <p>
            <strong>{removing?.name}</strong>: {reportsText.confirmRemoveText}
          </p>
        </ConfirmDialog>
      </section>
    </section>
  );
}
