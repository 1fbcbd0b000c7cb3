/**
 * Relatórios Automatizados (/reports/auto-report-rules, SPEC §7 `registros/crud-reports-processor`),
 * declared on the shared list and form screens: what to send (type, format, vehicles or
 * drivers), to whom (the SPEC §5 e-mail list), how often (daily, weekly on a weekday, monthly
 * on a day) and at what hour, São Paulo time. The list and the form show the last send
 * ('Último envio: 17/11/2026 07:00 — enviado' / '— falhou: …'); the list switches a rule on
 * and off; the form has 'Enviar agora'.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { autoReportRulesApi } from '../../api/auto-reports';
import { keys } from '../../api/keys';
import { driversApi } from '../../api/resources';
import {
  type AutoReportRule,
  AutoReportRuleInputSchema,
  PERIODICITIES,
  PERIODICITY_LABELS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  WEEKDAY_LABELS,
} from '../../contract';
import { toastError } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { t } from '../../i18n/pt-BR';
import { formatDateTime } from '../../lib/day-range';
import { validateEmailList } from '../../lib/emails';
import { useAccess } from '../../shared/areas/useAccess';
import { messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { ShortList } from '../../ui/ShortList';
import '../../ui/Choice.css';
import './reports.css';
import './auto-report-rules.css';

type RuleValues = {
  clientId: string | null;
  name: string;
  reportType: string;
  format: string;
  periodicity: string;
  vehicleIds: string[];
  driverIds: string[];
  emailDelivery: string;
  sendHour: string;
  weekday: string;
  monthDay: string;
  active: boolean;
};

const BASE = '/reports/auto-report-rules';
const pad = (n: number) => String(n).padStart(2, '0');

/** 'Semanal, segunda-feira às 07:00'. */
export function whenText(
  r: Pick<AutoReportRule, 'periodicity' | 'sendHour' | 'weekday' | 'monthDay'>,
) {
  const hour = `${pad(r.sendHour)}:00`;
  if (r.periodicity === 'DAILY') return `Diário, às ${hour}`;
  if (r.periodicity === 'WEEKLY')
    return `Semanal, ${(WEEKDAY_LABELS[r.weekday] ?? '').toLowerCase()} às ${hour}`;
  return `Mensal, dia ${r.monthDay} às ${hour}`;
}

/** '17/11/2026 07:00 — enviado' or '… — falhou: motivo' ('Ainda não enviado' before any). */
export function lastRunValue(run: AutoReportRule['lastRun']): string {
  if (!run) return t.autoReports.never;
  const at = formatDateTime(run.at).slice(0, 16);
  return run.status === 'sent'
    ? `${at} — ${t.autoReports.sent}`
    : `${at} — ${t.autoReports.failed}: ${run.error ?? ''}`;
}

/** 'Último envio: 17/11/2026 07:00 — enviado' (the column says 'Último envio' itself). */
export const lastRunText = (run: AutoReportRule['lastRun']) =>
  `${t.autoReports.lastRun}: ${run ? lastRunValue(run) : t.autoReports.never.toLowerCase()}`;

/** An address that may break before its '@' where the column is narrow. */
function emailAddress(text: string) {
  const at = text.indexOf('@');
  if (at <= 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}

function LastRun({ rule, labelled = false }: { rule: AutoReportRule; labelled?: boolean }) {
  return (
    <span className={rule.lastRun?.status === 'failed' ? 'last-run-failed' : undefined}>
      {labelled ? lastRunText(rule.lastRun) : lastRunValue(rule.lastRun)}
    </span>
  );
}

function ActiveToggle({ rule }: { rule: AutoReportRule }) {
  const access = useAccess(BASE);
  const invalidate = useInvalidate();
  const toggle = useMutation({
    mutationFn: () => autoReportRulesApi.update(rule.id, { active: !rule.active }),
    onSuccess: (saved) => {
      toast.success(saved.active ? t.autoReports.activated : t.autoReports.deactivated);
      void invalidate(keys.resource(autoReportRulesApi.path));
    },
    onError: (error) => void toastError(t.autoReports.sendFailed, error),
  });
  return (
    <span className="status-toggle">
      {statusColumn.render(rule)}
      {access.write && (
        <Button
          variant="ghost"
          isPending={toggle.isPending}
          aria-label={`${rule.active ? t.autoReports.deactivate : t.autoReports.activate} ${rule.name}`}
          onPress={() => toggle.mutate()}
        >
          {rule.active ? t.autoReports.deactivate : t.autoReports.activate}
        </Button>
      )}
    </span>
  );
}

function SendNow({ rule, reload }: { rule: AutoReportRule; reload: () => void }) {
  const access = useAccess(BASE);
  const invalidate = useInvalidate();
  const send = useMutation({
    mutationFn: () => autoReportRulesApi.sendNow(rule.id),
    onSuccess: (after) => {
      if (after.lastRun?.status === 'sent') toast.success(t.autoReports.sentNow);
      else toast.error(t.autoReports.sendFailed, after.lastRun?.error ?? undefined);
      void invalidate(keys.resource(autoReportRulesApi.path));
      reload();
    },
    onError: (error) => void toastError(t.autoReports.sendFailed, error),
  });
  return (
    <section className="auto-report-panel" aria-label={t.autoReports.lastRun}>
      <LastRun rule={rule} labelled />
      {access.write && (
        <Button variant="secondary" isPending={send.isPending} onPress={() => send.mutate()}>
          {t.autoReports.sendNow}
        </Button>
      )}
    </section>
  );
}

function useRuleOptions(values: RuleValues) {
  const vehicleIds = useVehicleOptions(values.clientId);
  const params = { clientId: values.clientId, limit: 1000, sort: 'completName' };
  const drivers = useQuery({
    queryKey: keys.resourceList(driversApi.path, params),
    queryFn: () => driversApi.list(params),
    enabled: Boolean(values.clientId) && values.reportType === 'DRIVERS',
  });
  return {
    vehicleIds,
    driverIds: (drivers.data?.drivers ?? []).map((d) => ({ label: d.completName, value: d.id })),
  };
}

export const autoReportRuleScreen: ResourceConfig<
  AutoReportRule,
  Awaited<ReturnType<typeof autoReportRulesApi.list>>,
  RuleValues
> = {
  title: 'Relatórios Automatizados',
  newTitle: 'Novo relatório automatizado',
  basePath: BASE,
  api: autoReportRulesApi,
  items: (p) => p.rules,
  total: (p) => p.total,
  nameOf: (r) => r.name,
  byClient: true,
  searchLabel: 'Buscar relatórios automatizados',
  defaultSort: 'name',
  sortChoices: [
    { label: 'Nome (A–Z)', column: 'name', direction: 'asc' },
    { label: 'Nome (Z–A)', column: 'name', direction: 'desc' },
    { label: 'Tipo', column: 'reportType', direction: 'asc' },
    { label: 'Criados por último', column: 'createdAt', direction: 'desc' },
    { label: 'Alterados por último', column: 'updatedAt', direction: 'desc' },
  ],
  columns: [
    {
      id: 'name',
      label: 'Nome',
      sortable: true,
      // Room for a name of a few words (they read like sentences), not one word a line.
      render: (r) => <span className="wide-name">{r.name}</span>,
    },
    {
      id: 'reportType',
      label: 'Tipo',
      sortable: true,
      render: (r) =>
        `${REPORT_TYPE_LABELS[r.reportType]} (${r.format === 'pdf' ? 'PDF' : 'Excel'})`,
    },
    { id: 'when', label: 'Quando', render: whenText },
    {
      id: 'emails',
      label: 'E-mails',
      // The first address and '+N': a list of three took 230 px and squeezed the names.
      render: (r) => (
        <ShortList items={validateEmailList(r.emailDelivery).emails} render={emailAddress} />
      ),
    },
    { id: 'lastRun', label: t.autoReports.lastRun, render: (r) => <LastRun rule={r} /> },
    { ...statusColumn, render: (r) => <ActiveToggle rule={r} /> },
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer', createOnly: true },
    { key: 'name', label: 'Nome', required: true },
    {
      key: 'reportType',
      label: 'Tipo de relatório',
      kind: 'select',
      required: true,
      options: REPORT_TYPES.map((value) => ({ label: REPORT_TYPE_LABELS[value], value })),
    },
    {
      key: 'format',
      label: 'Formato',
      kind: 'select',
      options: [
        { label: 'Excel (XLSX)', value: 'excel' },
        { label: 'PDF', value: 'pdf' },
      ],
    },
    {
      key: 'periodicity',
      label: 'Periodicidade',
      kind: 'select',
      required: true,
      options: PERIODICITIES.map((value) => ({ label: PERIODICITY_LABELS[value], value })),
      description:
        'Diário: o dia anterior. Semanal: a semana anterior, de segunda a domingo. Mensal: o mês anterior.',
    },
    {
      key: 'weekday',
      label: 'Dia do envio',
      kind: 'select',
      options: WEEKDAY_LABELS.slice(1).map((label, i) => ({ label, value: String(i + 1) })),
      shownWhen: (x) => x.periodicity === 'WEEKLY',
    },
    {
      key: 'monthDay',
      label: 'Dia do mês do envio',
      kind: 'select',
      options: Array.from({ length: 28 }, (_, i) => ({
        label: String(i + 1),
        value: String(i + 1),
      })),
      shownWhen: (x) => x.periodicity === 'MONTHLY',
    },
    {
      key: 'sendHour',
      label: 'Hora do envio (horário de Brasília)',
      kind: 'select',
      options: Array.from({ length: 24 }, (_, h) => ({ label: `${pad(h)}:00`, value: String(h) })),
    },
    {
      key: 'vehicleIds',
      label: 'Veículos',
      kind: 'checkboxes',
      noun: ['veículo', 'veículos'],
      shownWhen: (x) => x.reportType !== 'DRIVERS',
    },
    {
      key: 'driverIds',
      label: 'Motoristas',
      kind: 'checkboxes',
      noun: ['motorista', 'motoristas'],
      shownWhen: (x) => x.reportType === 'DRIVERS',
    },
    {
      key: 'emailDelivery',
      label: 'E-mails para envio',
      type: 'email',
      required: true,
      description:
        'Separe os e-mails por vírgula. O arquivo vai anexo (ou um link, se for grande).',
    },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  useOptions: useRuleOptions,
  empty: (clientId) => ({
    clientId,
    name: '',
    reportType: 'TRIPS',
    format: 'excel',
    periodicity: 'WEEKLY',
    vehicleIds: [],
    driverIds: [],
    emailDelivery: '',
    sendHour: '7',
    weekday: '1',
    monthDay: '1',
    active: true,
  }),
  fromItem: (r) => ({
    clientId: r.clientId,
    name: r.name,
    reportType: r.reportType,
    format: r.format,
    periodicity: r.periodicity,
    vehicleIds: r.vehicleIds,
    driverIds: r.driverIds,
    emailDelivery: r.emailDelivery,
    sendHour: String(r.sendHour),
    weekday: String(r.weekday),
    monthDay: String(r.monthDay),
    active: r.active,
  }),
  toPayload: (x, editing) => ({
    ...(editing ? {} : { clientId: x.clientId ?? undefined }),
    name: x.name,
    reportType: x.reportType || undefined,
    format: x.format,
    periodicity: x.periodicity || undefined,
    vehicleIds: x.reportType === 'DRIVERS' ? [] : x.vehicleIds,
    driverIds: x.reportType === 'DRIVERS' ? x.driverIds : [],
    emailDelivery: x.emailDelivery,
    sendHour: Number(x.sendHour),
    weekday: Number(x.weekday),
    monthDay: Number(x.monthDay),
    active: x.active,
  }),
  schema: AutoReportRuleInputSchema,
  extra: (item, reload) => <SendNow rule={item} reload={reload} />,
  messages: messages('relatório automatizado', 'o', 'relatórios automatizados'),
};
