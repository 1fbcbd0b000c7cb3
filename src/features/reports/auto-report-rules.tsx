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
  isDriverReport,
  PERIODICITIES,
  PERIODICITY_LABELS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportType,
  WEEKDAY_LABELS,
} from '../../contract';
import { toastError } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { t } from '../../i18n/pt-BR';
import { formatDateTime } from '../../lib/day-range';
import { validateEmailList } from '../../lib/emails';
import { useAccess } from '../../shared/areas/useAccess';
import { choicesOf } from '../../shared/choices';
import { messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
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
  const vehicleIds = useVehicleChoices(values.clientId);
  const params = { clientId: values.clientId, limit: 1000, sort: 'completName' };
  const drivers = useQuery({
    queryKey: keys.resourceList(driversApi.path, params),
    queryFn: () => driversApi.list(params),
    enabled: Boolean(values.clientId) && isDriverReport(values.reportType as ReportType),
  });
  return {
    vehicleIds,
    driverIds: choicesOf(
      drivers,
      (drivers.data?.drivers ?? []).map((d) => ({ label: d.completName, value: d.id })),
    ),
  };
}

export const autoReportRuleScreen: ResourceConfig<
  AutoReportRule,
  Awaited<ReturnType<typeof autoReportRulesApi.list>>,
  RuleValues
> = {
  title: t.screens.autoReportRules.relatoriosAutomatizados2,
  newTitle: t.screens.autoReportRules.novoRelatorioAutomatizado,
  basePath: BASE,
  api: autoReportRulesApi,
  items: (p) => p.rules,
  total: (p) => p.total,
  nameOf: (r) => r.name,
  byClient: true,
  searchLabel: t.screens.autoReportRules.buscarRelatoriosAutomatizados,
  defaultSort: 'name',
  sortChoices: [
    { label: t.screens.autoReportRules.nomeAZ, column: 'name', direction: 'asc' },
    { label: t.screens.autoReportRules.nomeZA, column: 'name', direction: 'desc' },
    { label: t.screens.autoReportRules.tipo, column: 'reportType', direction: 'asc' },
    { label: t.screens.autoReportRules.criadosPorUltimo, column: 'createdAt', direction: 'desc' },
    { label: t.screens.autoReportRules.alteradosPorUltimo, column: 'updatedAt', direction: 'desc' },
  ],
  columns: [
    {
      id: 'name',
      label: t.screens.autoReportRules.nome,
      sortable: true,
      // Room for a name of a few words (they read like sentences), not one word a line.
      render: (r) => <span className="wide-name">{r.name}</span>,
    },
    {
      id: 'reportType',
      label: t.screens.autoReportRules.tipo,
      sortable: true,
      render: (r) =>
        `${REPORT_TYPE_LABELS[r.reportType]} (${r.format === 'pdf' ? 'PDF' : 'Excel'})`,
    },
    { id: 'when', label: t.screens.autoReportRules.quando, render: whenText },
    {
      id: 'emails',
      label: t.screens.autoReportRules.eMails,
      // The first address and '+N': a list of three took 230 px and squeezed the names.
      render: (r) => (
        <ShortList items={validateEmailList(r.emailDelivery).emails} render={emailAddress} />
      ),
    },
    { id: 'lastRun', label: t.autoReports.lastRun, render: (r) => <LastRun rule={r} /> },
    { ...statusColumn, render: (r) => <ActiveToggle rule={r} /> },
  ],
  fields: [
    {
      key: 'clientId',
      label: t.screens.autoReportRules.cliente,
      kind: 'customer',
      createOnly: true,
    },
    { key: 'name', label: t.screens.autoReportRules.nome, required: true },
    {
      key: 'reportType',
      label: t.screens.autoReportRules.tipoDeRelatorio,
      kind: 'select',
      required: true,
      options: REPORT_TYPES.map((value) => ({ label: REPORT_TYPE_LABELS[value], value })),
    },
    {
      key: 'format',
      label: t.screens.autoReportRules.formato,
      kind: 'select',
      options: [
        { label: t.screens.autoReportRules.excelXlsx, value: 'excel' },
        { label: t.screens.autoReportRules.pdf, value: 'pdf' },
      ],
    },
    {
      key: 'periodicity',
      label: t.screens.autoReportRules.periodicidade,
      kind: 'select',
      required: true,
      options: PERIODICITIES.map((value) => ({ label: PERIODICITY_LABELS[value], value })),
      description: t.screens.autoReportRules.diarioODiaAnterior,
    },
    {
      key: 'weekday',
      label: t.screens.autoReportRules.diaDoEnvio,
      kind: 'select',
      options: WEEKDAY_LABELS.slice(1).map((label, i) => ({ label, value: String(i + 1) })),
      shownWhen: (x) => x.periodicity === 'WEEKLY',
    },
    {
      key: 'monthDay',
      label: t.screens.autoReportRules.diaDoMesDo,
      kind: 'select',
      options: Array.from({ length: 28 }, (_, i) => ({
        label: String(i + 1),
        value: String(i + 1),
      })),
      shownWhen: (x) => x.periodicity === 'MONTHLY',
    },
    {
      key: 'sendHour',
      label: t.screens.autoReportRules.horaDoEnvioHorario,
      kind: 'select',
      options: Array.from({ length: 24 }, (_, h) => ({ label: `${pad(h)}:00`, value: String(h) })),
    },
    {
      key: 'vehicleIds',
      label: t.screens.autoReportRules.veiculos2,
      kind: 'checkboxes',
      noun: [t.screens.autoReportRules.veiculo, t.screens.autoReportRules.veiculos],
      shownWhen: (x) => !isDriverReport(x.reportType as ReportType),
    },
    {
      key: 'driverIds',
      label: t.screens.autoReportRules.motoristas2,
      kind: 'checkboxes',
      noun: [t.screens.autoReportRules.motorista, t.screens.autoReportRules.motoristas],
      shownWhen: (x) => isDriverReport(x.reportType as ReportType),
    },
    {
      key: 'emailDelivery',
      label: t.screens.autoReportRules.eMailsParaEnvio,
      type: 'email',
      required: true,
      description: t.screens.autoReportRules.separeOsEMails,
    },
    { key: 'active', label: t.screens.autoReportRules.status, kind: 'switch' },
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
    vehicleIds: isDriverReport(x.reportType as ReportType) ? [] : x.vehicleIds,
    driverIds: isDriverReport(x.reportType as ReportType) ? x.driverIds : [],
    emailDelivery: x.emailDelivery,
    sendHour: Number(x.sendHour),
    weekday: Number(x.weekday),
    monthDay: Number(x.monthDay),
    active: x.active,
  }),
  schema: AutoReportRuleInputSchema,
  extra: (item, reload) => <SendNow rule={item} reload={reload} />,
  messages: messages(
    t.screens.autoReportRules.relatorioAutomatizado,
    'o',
    t.screens.autoReportRules.relatoriosAutomatizados,
  ),
};
