/**
 * The list screen of any inventory resource: search, sort, paging, edit and remove. A
 * customer's list holds the companies below it too (as the map does), with an 'Empresa'
 * column then. Mirrored resources (vehicles, drivers) are read from the device and searched
 * there; the others come through the query cache.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { useErrorToast, useLoadingToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { type ListControlsState, useListControls, useRemoval } from '../../hooks/useListControls';
import { useOnline } from '../../hooks/useOnline';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { Switch } from '../../ui/Choice';
import type { ColumnDef } from '../../ui/DataTable';
import { MirrorState } from '../../ui/feedback/MirrorState';
import { PagedTable } from '../../ui/PagedTable';
import { SearchInput } from '../../ui/SearchInput';
import { Select } from '../../ui/Select';
import { useAccess } from '../areas/useAccess';
import { CustomerPicker } from '../customers/CustomerPicker';
import { CustomerRequired } from '../customers/CustomerRequired';
import { useClientScope, useCustomerOptions, useSelectedClient } from '../customers/useCustomers';
import type { ResourceConfig } from './resource';
import '../../ui/Button.css';
import '../../ui/DataTable.css';
import '../../ui/page.css';

type Mirror<T extends { id: string }> = NonNullable<
  ResourceConfig<T, unknown, Record<string, unknown>>['mirror']
>;

/** Search, sort and page the mirrored rows on the device. */
function pageOf<T extends { id: string }>(
  rows: T[],
  mirror: Mirror<T>,
  controls: ListControlsState,
) {
  const query = controls.query.trim();
  const found = rows.filter(
    (row) => (mirror.shown?.(row) ?? true) && (!query || mirror.matches(row, query)),
  );
  const { column, direction } = controls.sort;
  const sign = direction === 'asc' ? 1 : -1;
  found.sort((a, b) => {
    const x = mirror.sortValue(a, column);
    const y = mirror.sortValue(b, column);
    return (
      (typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x).localeCompare(String(y), 'pt-BR')) * sign
    );
  });
  const start = (controls.page - 1) * controls.limit;
  return { rows: found.slice(start, start + controls.limit), total: found.length };
}

export function ResourceListPage<T extends { id: string }, P, V extends Record<string, unknown>>({
  config,
}: {
  config: ResourceConfig<T, P, V>;
}) {
  const access = useAccess(config.basePath);
  const online = useOnline();
  const invalidate = useInvalidate();
  const [clientId, setClientId] = useSelectedClient();
  const scope = useClientScope(clientId);
  const { nameOf: customerName } = useCustomerOptions();
  const controls = useListControls({ column: config.defaultSort, direction: 'asc' });
  const ready = !config.byClient || Boolean(clientId);
  // A Terceiro's mirror holds only their linked vehicles, of companies they cannot list.
  const visitor = useSession()?.user.role === 'VISITOR';
  const mirrored = config.mirror?.useRows(ready ? clientId : null, visitor ? 'all' : scope);
  const params = {
    ...controls.params,
    ...config.extraParams,
    ...(config.byClient ? { clientId } : {}),
  };
  const list = useQuery({
    queryKey: keys.resourceList(config.api.path, params),
    queryFn: () => config.api.list(params),
    enabled: ready && !config.mirror,
    placeholderData: keepPreviousData,
  });
  const loadError = mirrored ? mirrored.error : list.error;
  useErrorToast(loadError, config.messages.fetchError);
  useLoadingToast(
    Boolean(config.loadingToast) && (mirrored ? mirrored.syncing : list.isLoading),
    config.loadingToast ?? '',
  );
  const [showAll, setShowAll] = useState(false);
  const mirror = config.mirror && showAll ? { ...config.mirror, shown: undefined } : config.mirror;
  const page = mirrored && mirror ? pageOf(mirrored.rows ?? [], mirror, controls) : undefined;
  const removal = useRemoval<T>({
    remove: (item) => config.api.remove(item.id),
    done: config.messages.removed,
    errorTitle: config.messages.removeError,
    onDone: () => {
      // A mirrored list shows the change once the mirror syncs again.
      void mirrored?.refresh();
      void invalidate(keys.resource(config.api.path));
    },
  });

  const [first, ...rest] = config.columns.map((column, i) =>
    i === 0
      ? {
          ...column,
          rowHeader: true,
          render: (item: T) => (
            <Link href={`${config.basePath}/${item.id}`} className="cell-link">
              {column.render(item)}
            </Link>
          ),
        }
      : column,
  );
  // A customer with companies below it lists theirs too: say whose each row is.
  const company: ColumnDef<T>[] =
    config.byClient && scope.length > 1
      ? [
          {
            id: 'company',
            label: t.list.company,
            render: (item) => {
              const owner = (item as { clientId?: string }).clientId;
              return (owner ? customerName(owner) : undefined) ?? '—';
            },
          },
        ]
      : [];
  const actions: ColumnDef<T>[] =
    access.write || access.remove
      ? [
          {
            id: 'actions',
            label: t.list.actions,
            render: (item: T) => (
              <div className="row-actions">
                {access.write && (
                  <Link
                    href={`${config.basePath}/${item.id}`}
                    className="btn btn-ghost"
                    aria-label={`${t.list.edit} ${config.nameOf(item)}`}
                  >
                    {t.list.edit}
                  </Link>
                )}
                {access.remove && (
                  <Button
                    variant="ghost"
                    aria-label={`${t.list.remove} ${config.nameOf(item)}`}
                    onPress={() => removal.ask(item)}
                  >
                    {t.list.remove}
                  </Button>
                )}
              </div>
            ),
          },
        ]
      : [];
  const columns: ColumnDef<T>[] = [...(first ? [first] : []), ...company, ...rest, ...actions];

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{config.title}</h1>
        {access.write && (
          <Link href={`${config.basePath}/create`} className="btn btn-primary">
            {t.list.create}
          </Link>
        )}
      </div>
      <div className="filters">
        {config.byClient && (
          <CustomerPicker value={clientId} onChange={controls.restart(setClientId)} />
        )}
        <SearchInput
          label={config.searchLabel}
          value={controls.search}
          onChange={controls.setSearch}
        />
        {config.sortChoices && (
          <Select
            label={t.list.sortBy}
            value={`${controls.sort.column}:${controls.sort.direction}`}
            onChange={(value) => {
              const [column = config.defaultSort, direction] = value.split(':');
              controls.setSort({ column, direction: direction === 'desc' ? 'desc' : 'asc' });
            }}
            options={config.sortChoices.map((c) => ({
              label: c.label,
              value: `${c.column}:${c.direction}`,
            }))}
          />
        )}
        {config.mirror?.shown && (
          <Switch isSelected={showAll} onChange={controls.restart(setShowAll)}>
            {t.screens.resourceListPage.mostrarInativos}
          </Switch>
        )}
      </div>
      {mirrored && (
        <MirrorState syncedAt={mirrored.syncedAt} syncing={mirrored.syncing} online={online} />
      )}
      {ready ? (
        <PagedTable
          label={config.title}
          columns={columns}
          rows={page ? page.rows : list.data ? config.items(list.data) : []}
          total={page ? page.total : list.data ? config.total(list.data) : 0}
          loading={mirrored ? mirrored.rows === undefined : list.isPending}
          unavailable={
            // A mirror never synced on this device, without signal: what there is is unknown.
            mirrored ? !mirrored.syncedAt && !online : isUnavailable(list)
          }
          empty={config.messages.empty}
          controls={controls}
          removal={removal}
          confirm={{
            title: config.messages.confirmRemove,
            text: config.messages.confirmRemoveText,
          }}
          nameOf={config.nameOf}
        />
      ) : (
        <CustomerRequired />
      )}
    </section>
  );
}
