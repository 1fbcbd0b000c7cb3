/**
 * 'Aparelhos desconhecidos' (administrators): identifiers that tried to connect on one of
 * Rastro's listeners without matching an active tracker, newest first, with the protocol, the
 * address they came from, when and how often. 'Cadastrar rastreador' opens a new tracker with
 * the identifier and protocol filled in; 'Esquecer' drops one from the list.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-aria-components';
import { forgetUnknownDevice, listUnknownDevices } from '../../api/devices';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { isDeviceProtocol, type UnknownDevice } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useListControls, useRemoval } from '../../hooks/useListControls';
import { devices } from '../../i18n/devices';
import { t } from '../../i18n/pt-BR';
import { timeSince } from '../../lib/clock';
import { localDateTime, localDayAndClock } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import type { ColumnDef } from '../../ui/DataTable';
import { PagedTable } from '../../ui/PagedTable';
import { SearchInput } from '../../ui/SearchInput';
import '../../ui/Button.css';
import '../../ui/DataTable.css';
import '../../ui/page.css';
import './TrackerStatus.css';

const text = devices.unknown;
const keyOf = (d: UnknownDevice) => `${d.protocol}:${d.identifier}`;

export function UnknownDevicesPage() {
  const invalidate = useInvalidate();
  const controls = useListControls({ column: 'lastSeenAt', direction: 'desc' });
  const params = { search: controls.query, page: controls.page, limit: controls.limit };
  const list = useQuery({
    queryKey: keys.unknownDeviceList(params),
    queryFn: () => listUnknownDevices(params),
    placeholderData: keepPreviousData,
  });
  useErrorToast(list.error, text.error);
  const removal = useRemoval<UnknownDevice & { id: string }>({
    remove: (device) => forgetUnknownDevice(device.protocol, device.identifier),
    done: text.forgotten,
    errorTitle: text.forgetError,
    onDone: () => void invalidate(keys.unknownDevices),
  });
  const rows = (list.data?.unknownDevices ?? []).map((d) => ({ ...d, id: keyOf(d) }));
  const columns: ColumnDef<(typeof rows)[number]>[] = [
    { id: 'identifier', label: text.identifier, rowHeader: true, render: (d) => d.identifier },
    {
      id: 'protocol',
      label: text.protocol,
      render: (d) =>
        isDeviceProtocol(d.protocol) ? devices.protocolShort[d.protocol] : d.protocol,
    },
    { id: 'address', label: text.address, render: (d) => d.lastAddress ?? '—' },
    {
      id: 'lastSeenAt',
      label: text.lastSeen,
      render: (d) => (
        <time dateTime={d.lastSeenAt} title={localDateTime(d.lastSeenAt)}>
          {timeSince(d.lastSeenAt)}
        </time>
      ),
    },
    { id: 'firstSeenAt', label: text.firstSeen, render: (d) => localDayAndClock(d.firstSeenAt) },
    { id: 'attempts', label: text.attempts, render: (d) => d.attempts },
    {
      id: 'actions',
      label: t.list.actions,
      render: (d) => (
        <div className="row-actions">
          <Link
            className="btn btn-ghost"
            href={`/management/trackers/create?${new URLSearchParams({
              identifier: d.identifier,
              protocol: d.protocol,
            })}`}
            aria-label={`${text.create}: ${d.identifier}`}
          >
            {text.create}
          </Link>
          <Button
            variant="ghost"
            aria-label={`${text.forget}: ${d.identifier}`}
            onPress={() => removal.ask(d)}
          >
            {text.forget}
          </Button>
        </div>
      ),
    },
  ];
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
      </div>
      <p className="muted">{text.intro}</p>
      <div className="filters">
        <SearchInput label={text.search} value={controls.search} onChange={controls.setSearch} />
      </div>
      <PagedTable
        label={text.title}
        columns={columns}
        rows={rows}
        total={list.data?.total ?? 0}
        loading={list.isLoading}
        unavailable={isUnavailable(list)}
        empty={text.empty}
        controls={controls}
        removal={removal}
        confirm={{ title: `${text.forget}?`, text: text.intro }}
        nameOf={(d) => d.identifier}
      />
    </section>
  );
}
