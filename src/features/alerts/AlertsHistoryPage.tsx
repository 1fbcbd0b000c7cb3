/**
 * The alert history (`/fleet-management/alerts/alerts-history`), where 'Ver alertas' leads:
 * filters (vehicle, type, acknowledged, period), each type in its SPEC §3 colour, and
 * acknowledging one, several (selection, with the SPEC §9 quantity text) or all. A link from
 * an e-mail may bring `?vehicleId=` to start on one vehicle, or `?type=` on one type (an alert
 * about a driver, a driver's document expiring, has no vehicle to filter on).
 */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Cell,
  Checkbox,
  Column,
  Row,
  type Selection,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import { useSearchParams } from 'react-router';
import {
  acknowledgeAlerts,
  acknowledgeAll,
  listAlerts,
  pendingAcknowledgements,
} from '../../api/alerts';
import { keys } from '../../api/keys';
import { isUnavailable, LOOKUP_QUERY } from '../../api/query';
import { ALERT_TYPE_LABELS, ALERT_TYPES, type Alert, type AlertType } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { t } from '../../i18n/pt-BR';
import { formatDay, quantityText } from '../../lib/format';
import { localDateTime } from '../../lib/local-time';
import { dayBound, PERIOD_MESSAGES } from '../../lib/report-period';
import { AlertTypeChip } from '../../shared/alerts/AlertTypeChip';
import { useAccess } from '../../shared/areas/useAccess';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { EnablePushButton } from '../../shared/push/EnablePushButton';
import { VehiclePicker } from '../../shared/vehicles/VehiclePicker';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { MirrorState } from '../../ui/feedback/MirrorState';
import { toast } from '../../ui/feedback/toasts';
import { Pagination } from '../../ui/Pagination';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import '../../ui/CheckList.css';
import '../../ui/DataTable.css';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './AlertsHistoryPage.css';

const HISTORY = '/fleet-management/alerts/alerts-history';

/** Which document an expiring-document alert is about: two of one vehicle differ by it. */
const documentDue = (due: NonNullable<Alert['document']>) =>
  t.alerts.documentDue(due.label, formatDay(due.expiry));

/** Who the alert is about: the vehicle's plate, or the driver (a driver's document). */
const subjectName = (alert: Alert) =>
  (alert.vehicleId === null ? alert.driverName : alert.plate) ?? '';

function AlertPlace({ alert }: { alert: Alert }) {
  if (alert.latitude === null || alert.longitude === null) return <>—</>;
  const lat = alert.latitude.toFixed(5);
  const lon = alert.longitude.toFixed(5);
  return (
    <a
      href={`https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`}
      target="_blank"
      rel="noreferrer"
      aria-label={`${t.alerts.seeMap}: ${lat}, ${lon}`}
    >
      {lat}, {lon}
    </a>
  );
}

/**
 * When it happened: the fix's time, but a silence ('Sem posição') happens when it is raised,
 * well after its last fix (the list's order, newest raised first, then reads in order).
 */
function AlertWhen({ alert }: { alert: Alert }) {
  if (alert.type !== 'LOCATION_TIMEOUT' || !alert.fixTime)
    return <>{localDateTime(alert.fixTime ?? alert.createdAt)}</>;
  return (
    <span>
      {localDateTime(alert.createdAt)}
      <span className="muted"> · {t.alerts.lastFixAt(localDateTime(alert.fixTime))}</span>
    </span>
  );
}

function AlertState({ alert, queued }: { alert: Alert; queued: boolean }) {
  return (
    <span className="alert-state">
      {queued && !alert.acknowledgedAt ? (
        <span className="badge badge-neutral" title={t.alerts.queuedHint}>
          {t.alerts.queued}
        </span>
      ) : alert.acknowledgedAt ? (
        <span className="badge badge-success">
          {t.alerts.ackBy(alert.acknowledgedBy, localDateTime(alert.acknowledgedAt))}
        </span>
      ) : (
        <span className="badge badge-warning">{t.alerts.open}</span>
      )}
      {alert.late && <span className="badge badge-neutral">{t.alerts.late}</span>}
    </span>
  );
}

export function AlertsHistoryPage() {
  const [search] = useSearchParams();
  const [clientId, setClientId] = useSelectedClient();
  const canAck = useAccess('/fleet-management/alerts/alerts-history').write;
  const invalidate = useInvalidate();
  const [vehicleId, setVehicleId] = useState<string | null>(search.get('vehicleId'));
  const [type, setType] = useState<string>(() => {
    const given = search.get('type');
    return ALERT_TYPES.some((known) => known === given) ? (given ?? '') : '';
  });
  // The dashboard's 'Alertas não reconhecidos' opens the pending ones (?acknowledged=false).
  const [acknowledged, setAcknowledged] = useState<string>(() => {
    const given = search.get('acknowledged');
    return given === 'true' || given === 'false' ? given : '';
  });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const [selection, setSelection] = useState<Selection>(new Set());
  const [confirmAll, setConfirmAll] = useState(false);
  const restart =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
      setSelection(new Set());
    };

  const params = {
    clientId,
    vehicleId,
    type: type || null,
    acknowledged: acknowledged === '' ? null : acknowledged === 'true',
    beginAt: dayBound(from, false),
    endAt: dayBound(to, true),
    page,
    limit,
    sort: 'createdAt' as const,
    order: 'desc' as const,
  };
  // 'Até' before 'De' is said beside the field, and nothing is asked (the server refuses it).
  const reversed = from !== '' && to !== '' && to < from;
  const list = useQuery({
    queryKey: keys.alertList(params),
    queryFn: () => listAlerts(params),
    enabled: !reversed,
    placeholderData: keepPreviousData,
    // Offline the read still goes to the service worker, which answers with its kept copy.
    ...LOOKUP_QUERY,
  });
  useErrorToast(list.error, t.alerts.fetchError);
  // Without signal and no copy of this page: not the previous page's rows under new filters.
  const unavailable = isUnavailable(list);
  const rows = unavailable || reversed ? [] : (list.data?.items ?? []);
  const selected =
    selection === 'all'
      ? rows.filter((a) => !a.acknowledgedAt).map((a) => a.id)
      : [...selection]
          .map(String)
          .filter((id) => rows.some((a) => a.id === id && !a.acknowledgedAt));

  const pendingAcks = useQuery({
    queryKey: keys.pendingAcks,
    queryFn: pendingAcknowledgements,
    networkMode: 'always',
  });
  const isQueued = (id: string) =>
    Boolean(pendingAcks.data?.all || pendingAcks.data?.alertIds.includes(id));
  // Offline, the service worker (when it controls the page) queues the acknowledgement.
  const canQueue = () => Boolean(navigator.serviceWorker?.controller) || requireOnline();
  const ack = useMutation({
    mutationFn: (ids: string[] | 'all') =>
      ids === 'all' ? acknowledgeAll() : acknowledgeAlerts(ids),
    networkMode: 'always',
    onSuccess: async ({ count, queued }) => {
      if (queued) toast.warning(t.alerts.queuedToast);
      else toast.success(t.alerts.acknowledged(count));
      setSelection(new Set());
      await invalidate(keys.alerts);
    },
    onError: (err) => void toastError(t.alerts.ackError, err),
  });

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.alerts.history}</h1>
        <EnablePushButton />
      </div>
      {list.data?.keptAt && !unavailable && (
        // Answered by the service worker from its copy: the network could not.
        <MirrorState syncedAt={list.data.keptAt} syncing={false} online={false} />
      )}
      <div className="filters alert-filters">
        <CustomerPicker value={clientId} onChange={restart(setClientId)} />
        <VehiclePicker
          key={clientId ?? ''}
          clientId={clientId}
          label={t.alerts.vehicle}
          value={vehicleId}
          onChange={restart(setVehicleId)}
          placeholder={t.alerts.allVehicles}
        />
        <Select
          label={t.alerts.type}
          value={type || 'all'}
          onChange={(value) => restart(setType)(value === 'all' ? '' : value)}
          options={[
            { label: t.alerts.all, value: 'all' },
            ...ALERT_TYPES.map((value) => ({ label: ALERT_TYPE_LABELS[value], value })),
          ]}
        />
        <Select
          label={t.alerts.status}
          value={acknowledged || 'all'}
          onChange={(value) => restart(setAcknowledged)(value === 'all' ? '' : value)}
          options={[
            { label: t.alerts.all, value: 'all' },
            { label: t.alerts.pending, value: 'false' },
            { label: t.alerts.done, value: 'true' },
          ]}
        />
        <TextField label={t.alerts.from} type="date" value={from} onChange={restart(setFrom)} />
        <TextField
          label={t.alerts.to}
          type="date"
          value={to}
          onChange={restart(setTo)}
          errorMessage={reversed ? PERIOD_MESSAGES.order : undefined}
        />
      </div>
      {canAck && (
        <div
          className="selection-bar"
          role="toolbar"
          aria-label={t.screens.alertsHistoryPage.reconhecerAlertas}
        >
          <span aria-live="polite">{quantityText(selected.length, 'alerta', 'alertas')}</span>
          <Button
            isDisabled={selected.length === 0 || ack.isPending}
            onPress={() => canQueue() && ack.mutate(selected)}
          >
            {t.alerts.acknowledgeSelected}
          </Button>
          <Button
            variant="secondary"
            isDisabled={ack.isPending}
            onPress={() => setConfirmAll(true)}
          >
            {t.alerts.acknowledgeAll}
          </Button>
        </div>
      )}
      <div className="table-wrap" aria-busy={list.isFetching || undefined}>
        <Table
          aria-label={t.alerts.history}
          className="data-table alert-table"
          selectionMode={canAck ? 'multiple' : 'none'}
          selectedKeys={selection}
          onSelectionChange={setSelection}
          disabledKeys={rows.filter((a) => a.acknowledgedAt || isQueued(a.id)).map((a) => a.id)}
        >
          <TableHeader>
            {canAck && (
              <Column className="cell-select">
                <Checkbox
                  slot="selection"
                  className="checkbox"
                  aria-label={t.screens.alertsHistoryPage.selecionarTodosDestaPagina}
                >
                  <span className="checkbox-box" aria-hidden="true" />
                </Checkbox>
              </Column>
            )}
            <Column isRowHeader>{t.alerts.type}</Column>
            <Column>{t.alerts.subject}</Column>
            <Column>{t.alerts.rule}</Column>
            <Column>{t.alerts.when}</Column>
            <Column>{t.alerts.where}</Column>
            <Column>{t.alerts.status}</Column>
          </TableHeader>
          <TableBody
            items={rows}
            dependencies={[canAck, pendingAcks.data]}
            renderEmptyState={() => (
              <p className="table-empty">
                {reversed
                  ? t.alerts.fixPeriod
                  : unavailable
                    ? t.network.listOffline
                    : list.isPending
                      ? 'Carregando…'
                      : t.alerts.empty}
              </p>
            )}
          >
            {(alert) => (
              <Row id={alert.id} className={alert.acknowledgedAt ? 'row-done' : undefined}>
                {canAck && (
                  <Cell className="cell cell-select">
                    <Checkbox
                      slot="selection"
                      className="checkbox"
                      aria-label={`Selecionar ${ALERT_TYPE_LABELS[alert.type as AlertType]} de ${subjectName(alert)}`}
                    >
                      <span className="checkbox-box" aria-hidden="true" />
                    </Checkbox>
                  </Cell>
                )}
                <Cell className="cell cell-type" data-label={t.alerts.type}>
                  <AlertTypeChip type={alert.type} />
                </Cell>
                <Cell className="cell" data-label={t.alerts.subject}>
                  {/* One piece: a phone's card lays each child of a cell in a cell of its own. */}
                  <span>
                    {alert.vehicleId === null ? (
                      <>
                        <strong>{alert.driverName ?? '—'}</strong> · {t.alerts.driver}
                      </>
                    ) : (
                      <>
                        <strong>{alert.plate ?? '—'}</strong>
                        {alert.vehicleName ? ` · ${alert.vehicleName}` : ''}
                      </>
                    )}
                    {alert.document && (
                      <span className="alert-document muted">{documentDue(alert.document)}</span>
                    )}
                  </span>
                </Cell>
                <Cell className="cell" data-label={t.alerts.rule}>
                  {alert.ruleName ?? '—'}
                </Cell>
                <Cell className="cell" data-label={t.alerts.when}>
                  <AlertWhen alert={alert} />
                </Cell>
                <Cell className="cell" data-label={t.alerts.where}>
                  <AlertPlace alert={alert} />
                </Cell>
                <Cell className="cell" data-label={t.alerts.status}>
                  <AlertState alert={alert} queued={isQueued(alert.id)} />
                </Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      </div>
      <Pagination
        page={page}
        limit={limit}
        total={reversed ? 0 : (list.data?.total ?? 0)}
        unknown={unavailable}
        onPageChange={(next) => {
          setPage(next);
          setSelection(new Set());
        }}
        onLimitChange={restart(setLimit)}
      />
      <ConfirmDialog
        title={t.alerts.confirmAll}
        confirmLabel={t.alerts.acknowledgeAll}
        isOpen={confirmAll}
        onCancel={() => setConfirmAll(false)}
        onConfirm={() => {
          setConfirmAll(false);
          if (canQueue()) ack.mutate('all');
        }}
        pending={ack.isPending}
      >
        <p>{t.alerts.confirmAllText}</p>
      </ConfirmDialog>
    </section>
  );
}

export { HISTORY as ALERTS_HISTORY_PATH };
