/** The list screen of any inventory resource: search, sort, paging, edit and remove. */
import { useEffect, useState } from 'react';
import { Link } from 'react-aria-components';
import { toastError } from '../../app/feedback';
import { MirrorState } from '../../app/MirrorState';
import { useCan } from '../../app/permissions';
import { useAsync } from '../../app/useAsync';
import { useListControls, useRemoval } from '../../app/useListControls';
import { t } from '../../i18n/pt-BR';
import { foldText } from '../../lib/text';
import { Button } from '../../ui/Button';
import { Switch } from '../../ui/Choice';
import type { ColumnDef } from '../../ui/DataTable';
import { PagedTable } from '../../ui/PagedTable';
import { SearchInput } from '../../ui/SearchInput';
import { EmptyState } from '../../ui/States';
import { CustomerPicker } from '../customers/CustomerPicker';
import { useSelectedClient } from '../customers/useCustomers';
import type { ResourceConfig } from './resource';

/** Search, sort and page the mirrored rows on the device. */
function pageOf<T extends { id: string }>(
  rows: T[],
  mirror: NonNullable<ResourceConfig<T, unknown, Record<string, unknown>>['mirror']>,
  controls: ReturnType<typeof useListControls>,
) {
  const query = foldText(controls.query.trim());
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
  const canWrite = useCan(config.permissions.write);
  const canRemove = useCan(config.permissions.remove);
  const [clientId, setClientId] = useSelectedClient();
  const controls = useListControls({ column: config.defaultSort, direction: 'asc' });
  const ready = !config.byClient || Boolean(clientId);
  const mirrored = config.mirror?.useRows(ready ? clientId : null);
  const list = useAsync(
    ready && !config.mirror
      ? () =>
          config.api.list({
            ...controls.params,
            ...config.extraParams,
            ...(config.byClient ? { clientId } : {}),
          })
      : null,
    [JSON.stringify(controls.params), clientId, ready],
  );
  const [showAll, setShowAll] = useState(false);
  const mirror = config.mirror && showAll ? { ...config.mirror, shown: undefined } : config.mirror;
  const page = mirrored && mirror ? pageOf(mirrored.rows ?? [], mirror, controls) : undefined;
  // A mirrored list shows the change once the mirror syncs again.
  const reload = mirrored ? mirrored.refresh : list.reload;
  useEffect(() => {
    if (list.error) void toastError(config.messages.fetchError, list.error);
  }, [list.error, config.messages.fetchError]);
  const removal = useRemoval<T>({
    remove: (item) => config.api.remove(item.id),
    done: config.messages.removed,
    errorTitle: config.messages.removeError,
    onDone: () => reload(),
  });

  const columns: ColumnDef<T>[] = [
    ...config.columns.map((column, i) =>
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
    ),
    ...(canWrite || canRemove
      ? [
          {
            id: 'actions',
            label: t.list.actions,
            render: (item: T) => (
              <div className="row-actions">
                {canWrite && (
                  <Link
                    href={`${config.basePath}/${item.id}`}
                    className="btn btn-ghost"
                    aria-label={`${t.list.edit} ${config.nameOf(item)}`}
                  >
                    {t.list.edit}
                  </Link>
                )}
                {canRemove && (
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
      : []),
  ];

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{config.title}</h1>
        {canWrite && (
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
        {config.mirror?.shown && (
          <Switch isSelected={showAll} onChange={controls.restart(setShowAll)}>
            Mostrar inativos
          </Switch>
        )}
      </div>
      {mirrored && <MirrorState syncedAt={mirrored.syncedAt} syncing={mirrored.syncing} />}
      {ready ? (
        <PagedTable
          label={config.title}
          columns={columns}
          rows={page ? page.rows : list.data ? config.items(list.data) : []}
          total={page ? page.total : list.data ? config.total(list.data) : 0}
          loading={mirrored ? mirrored.rows === undefined : list.loading}
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
        <EmptyState title="Selecione um cliente para ver a lista." />
      )}
    </section>
  );
}
