/**
 * The one list table: react-aria's Table (keyboard navigation, sortable headers announced to
 * screen readers) declared by columns. Pages give columns, rows, the sort and what to show
 * when empty; this renders the rest. Below 600 px the stylesheet lays each row out as a card
 * (the row header as its title, each value under its column's name, the actions in full).
 */
import type { ReactNode } from 'react';
import {
  Cell,
  Column,
  Row,
  type SortDescriptor,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import './DataTable.css';

export interface ColumnDef<T> {
  id: string;
  label: string;
  sortable?: boolean;
  rowHeader?: boolean;
  render: (item: T) => ReactNode;
}

export interface Sort<K extends string = string> {
  column: K;
  direction: 'asc' | 'desc';
}

export function DataTable<T extends { id: string }>({
  label,
  columns,
  rows,
  sort,
  onSortChange,
  empty,
  loading = false,
  unavailable = false,
}: {
  label: string;
  columns: ColumnDef<T>[];
  rows: T[];
  sort?: Sort | undefined;
  onSortChange?: ((sort: Sort) => void) | undefined;
  empty: string;
  loading?: boolean;
  /**
   * Nothing of this list could be read (no signal, no copy kept): says so, not 'Carregando…'
   * for ever, and shows no rows (a placeholder kept from other filters or another page is not
   * this list).
   */
  unavailable?: boolean;
}) {
  const waiting = loading && !unavailable;
  const descriptor: SortDescriptor | undefined = sort
    ? { column: sort.column, direction: sort.direction === 'asc' ? 'ascending' : 'descending' }
    : undefined;
  return (
    <div className="table-wrap" aria-busy={waiting || undefined}>
      <Table
        aria-label={label}
        className="data-table"
        sortDescriptor={descriptor}
        onSortChange={(next) =>
          onSortChange?.({
            column: String(next.column),
            direction: next.direction === 'ascending' ? 'asc' : 'desc',
          })
        }
      >
        <TableHeader columns={columns}>
          {(column) => (
            <Column
              id={column.id}
              className={`column column-${column.id}`}
              isRowHeader={column.rowHeader}
              allowsSorting={column.sortable}
            >
              {({ sortDirection }) => (
                <span className="column-label">
                  {column.label}
                  {sortDirection && (
                    <span aria-hidden="true">{sortDirection === 'ascending' ? ' ▲' : ' ▼'}</span>
                  )}
                </span>
              )}
            </Column>
          )}
        </TableHeader>
        <TableBody
          items={unavailable ? [] : rows}
          // Rows are drawn again when the columns change (a column that appears once its data
          // arrives, such as a customer's 'Empresa').
          dependencies={[columns]}
          renderEmptyState={() => (
            <p className="table-empty">
              {waiting ? 'Carregando…' : unavailable ? t.network.listOffline : empty}
            </p>
          )}
        >
          {(item) => (
            <Row id={item.id} columns={columns}>
              {(column) => (
                // On phones rows are cards and each value shows its column's name (DataTable.css).
                <Cell className={`cell cell-${column.id}`} data-label={column.label}>
                  {column.render(item)}
                </Cell>
              )}
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
}
