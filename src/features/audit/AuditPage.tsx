/**
 * Auditoria (/management/audit): who changed what, who sent which command and how it went,
 * who signed in or was refused, newest first, for the Gestor (his companies) and the
 * Administrador. Filters by period, user, company, kind of event and record; pages of 50;
 * the same filters as a spreadsheet.
 */

import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AuditFilters, auditPage, auditSpreadsheet } from '../../api/audit';
import { isUnavailable, LOOKUP_QUERY } from '../../api/query';
import { listUsers } from '../../api/users';
import { AUDIT_ENTITIES, AUDIT_KINDS, AUDIT_PAGE_SIZE, type AuditEvent } from '../../contract';
import { toastError, useErrorToast } from '../../hooks/feedback';
import { useSession } from '../../hooks/useSession';
import { auditChangeLines, auditText, auditWhat } from '../../i18n/audit';
import { localDateTime } from '../../lib/local-time';
import { dayBound, PERIOD_MESSAGES } from '../../lib/report-period';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { Pagination } from '../../ui/Pagination';
import { Select } from '../../ui/Select';
import { saveFile } from '../../ui/save-file';
import { TextField } from '../../ui/TextField';
import '../../ui/badge.css';
import '../../ui/page.css';
import './AuditPage.css';

const text = auditText;
const ANY = 'any';

const OUTCOME_BADGE: Record<string, string> = {
  confirmed: 'badge-success',
  failed: 'badge-danger',
  expired: 'badge-warning',
};

const columns: ColumnDef<AuditEvent>[] = [
  {
    id: 'at',
    label: text.columns.at,
    rowHeader: true,
    render: (e) => <time dateTime={e.at}>{localDateTime(e.at)}</time>,
  },
  { id: 'actor', label: text.columns.actor, render: (e) => e.actorEmail ?? text.unknownActor },
  { id: 'ip', label: text.columns.ip, render: (e) => e.ip ?? '—' },
  { id: 'company', label: text.columns.company, render: (e) => e.clientName ?? text.noCompany },
  { id: 'what', label: text.columns.what, render: (e) => auditWhat(e) },
  { id: 'record', label: text.columns.record, render: (e) => e.summary || '—' },
  {
    id: 'changes',
    label: text.columns.changes,
    render: (e) => {
      const lines = auditChangeLines(e.changes);
      return lines.length ? (
        <ul className="audit-changes">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        '—'
      );
    },
  },
  {
    id: 'outcome',
    label: text.columns.outcome,
    render: (e) =>
      e.outcome ? (
        <span className={`badge ${OUTCOME_BADGE[e.outcome] ?? 'badge-neutral'}`}>
          {text.outcomes[e.outcome] ?? e.outcome}
        </span>
      ) : (
        '—'
      ),
  },
];

export function AuditPage() {
  const session = useSession();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [userId, setUserId] = useState('');
  const [clientId, setClientId] = useState<string | null>(null);
  const [kind, setKind] = useState('');
  const [entity, setEntity] = useState('');
  const [entityId, setEntityId] = useState('');
  const [page, setPage] = useState(1);
  const restart =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const reversed = from !== '' && to !== '' && to < from;
  const filters: AuditFilters = {
    from: from ? (dayBound(from, false) ?? undefined) : undefined,
    to: to ? (dayBound(to, true) ?? undefined) : undefined,
    userId: userId || undefined,
    clientId: clientId ?? undefined,
    kind: kind || undefined,
    entity: entity || undefined,
    entityId: entityId.trim() || undefined,
  };
  const list = useQuery({
    queryKey: ['audit', filters, page],
    queryFn: () => auditPage(filters, page, AUDIT_PAGE_SIZE),
    enabled: !reversed,
    placeholderData: keepPreviousData,
    ...LOOKUP_QUERY,
  });
  useErrorToast(list.error, text.loadError);
  const home = session?.user.clientId ?? '';
  const users = useQuery({
    queryKey: ['audit-users', clientId ?? home],
    queryFn: () => listUsers({ clientId: clientId ?? home, limit: 1000, sort: 'name' }),
    enabled: Boolean(clientId ?? home),
    ...LOOKUP_QUERY,
  });
  const download = useMutation({
    mutationFn: () => auditSpreadsheet(filters),
    onSuccess: ({ blob, name }) => saveFile(blob, name),
    onError: (error) => void toastError(text.exportError, error),
  });
  const unavailable = isUnavailable(list);
  const rows = unavailable || reversed ? [] : (list.data?.events ?? []);
  // The company's people, and whoever acted in the lines shown (the users list holds one
  // company only; the lines may come from the companies below it).
  const userOptions = [
    ...new Map(
      [
        ...(users.data?.users ?? []).map((u) => [u.id, u.name] as const),
        ...rows.flatMap((e) =>
          e.actorUserId && e.actorEmail ? [[e.actorUserId, e.actorEmail] as const] : [],
        ),
      ].reverse(),
    ),
  ]
    .map(([value, label]) => ({ value, label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'pt-BR'));
  const options = (labels: Record<string, string>, keys: readonly string[]) => [
    { label: text.any, value: ANY },
    ...keys.map((key) => ({ label: labels[key] ?? key, value: key })),
  ];
  return (
    <section className="page audit-page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
        <Button
          variant="secondary"
          isDisabled={download.isPending || reversed}
          onPress={() => download.mutate()}
        >
          {download.isPending ? text.exporting : text.export}
        </Button>
      </div>
      <p className="muted">{text.intro}</p>
      <div className="filters audit-filters">
        <TextField label={text.from} type="date" value={from} onChange={restart(setFrom)} />
        <TextField
          label={text.to}
          type="date"
          value={to}
          onChange={restart(setTo)}
          errorMessage={reversed ? PERIOD_MESSAGES.order : undefined}
        />
        <CustomerPicker label={text.company} value={clientId} onChange={restart(setClientId)} />
        <Select
          label={text.user}
          value={userId || ANY}
          onChange={(value) => restart(setUserId)(value === ANY ? '' : value)}
          isLoading={users.isLoading}
          options={[{ label: text.any, value: ANY }, ...userOptions]}
        />
        <Select
          label={text.kind}
          value={kind || ANY}
          onChange={(value) => restart(setKind)(value === ANY ? '' : value)}
          options={options(text.kinds, AUDIT_KINDS)}
        />
        <Select
          label={text.entity}
          value={entity || ANY}
          onChange={(value) => restart(setEntity)(value === ANY ? '' : value)}
          options={options(text.entities, AUDIT_ENTITIES)}
        />
        <TextField label={text.entityId} value={entityId} onChange={restart(setEntityId)} />
      </div>
      <div className="audit-table" aria-busy={list.isFetching || undefined}>
        <DataTable
          label={text.title}
          columns={columns}
          rows={rows}
          empty={text.empty}
          loading={list.isLoading}
          unavailable={unavailable}
        />
      </div>
      <Pagination
        page={page}
        limit={AUDIT_PAGE_SIZE}
        total={list.data?.total ?? 0}
        unknown={unavailable}
        onPageChange={setPage}
        sizes={[AUDIT_PAGE_SIZE]}
      />
    </section>
  );
}
