/**
 * A list screen's body: the table, its paging and the confirmation before removing a row,
 * driven by useListControls and useRemoval.
 */
import { t } from '../i18n/pt-BR';
import { ConfirmDialog } from './ConfirmDialog';
import { type ColumnDef, DataTable, type Sort } from './DataTable';
import { Pagination } from './Pagination';

/** The paging and sort of a list, as PagedTable drives them. */
export interface ListControls {
  page: number;
  setPage: (page: number) => void;
  limit: number;
  setLimit: (limit: number) => void;
  sort: Sort;
  setSort: (sort: Sort) => void;
}

/** A removal waiting for confirmation. */
export interface Removal<T> {
  target: T | undefined;
  cancel: () => void;
  confirm: () => Promise<void>;
  pending: boolean;
}

export function PagedTable<T extends { id: string }>({
  label,
  columns,
  rows,
  total,
  loading,
  unavailable = false,
  empty,
  controls,
  removal,
  confirm,
  nameOf = (item) => String((item as { name?: unknown }).name ?? ''),
}: {
  label: string;
  columns: ColumnDef<T>[];
  rows: T[];
  total: number;
  loading: boolean;
  /** See DataTable. */
  unavailable?: boolean;
  empty: string;
  controls: ListControls;
  removal: Removal<T>;
  confirm: { title: string; text: string };
  nameOf?: (item: T) => string;
}) {
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        sort={controls.sort}
        onSortChange={controls.setSort}
        empty={empty}
        loading={loading}
        unavailable={unavailable}
      />
      <Pagination
        page={controls.page}
        limit={controls.limit}
        total={total}
        unknown={unavailable}
        onPageChange={controls.setPage}
        onLimitChange={controls.setLimit}
      />
      <ConfirmDialog
        title={confirm.title}
        confirmLabel={t.list.remove}
        isOpen={Boolean(removal.target)}
        onCancel={removal.cancel}
        onConfirm={() => void removal.confirm()}
        danger
        pending={removal.pending}
      >
        <p>
          <strong>{removal.target ? nameOf(removal.target) : ''}</strong>: {confirm.text}
        </p>
      </ConfirmDialog>
    </>
  );
}
