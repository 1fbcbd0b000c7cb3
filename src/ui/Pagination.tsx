/** Page controls under a list: where we are, previous/next and the page size. */
import { useState } from 'react';
import { t } from '../i18n/pt-BR';
import { Button } from './Button';
import { Select } from './Select';
import './page.css';
import './Pagination.css';

export function Pagination({
  page,
  limit,
  total,
  onPageChange,
  onLimitChange,
  sizes = [10, 25, 50, 100],
  unknown = false,
  label = t.list.paging,
}: {
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  onLimitChange?: (limit: number) => void;
  sizes?: number[];
  /**
   * The list's size is not known (a page that cannot be read offline): 'Sem conexão' instead
   * of a range and count, which would be another list's; both ways stay open.
   */
  unknown?: boolean;
  /** The pager's name, where a page has several (one per vehicle). */
  label?: string;
}) {
  // An empty list says so itself ('Nenhum … ainda.'): no '0–0 de 0' and buttons that go nowhere
  // under it. Past the first page (its rows removed meanwhile) the way back stays.
  if (!unknown && total === 0 && page <= 1) return null;
  const pages = Math.max(1, Math.ceil(total / limit));
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  return (
    <nav className="pagination" aria-label={label}>
      <span aria-live="polite">{unknown ? t.network.offline : `${first}–${last} de ${total}`}</span>
      <div className="pagination-controls">
        {onLimitChange && (
          <Select
            label={t.screens.pagination.porPagina}
            className="inline-select"
            value={String(limit)}
            onChange={(value) => onLimitChange(Number(value))}
            options={sizes.map((size) => ({ label: String(size), value: String(size) }))}
          />
        )}
        <Button variant="secondary" isDisabled={page <= 1} onPress={() => onPageChange(page - 1)}>
          {t.screens.pagination.anterior}
        </Button>
        <span>{unknown ? `Página ${page}` : `Página ${page} de ${pages}`}</span>
        <Button
          variant="secondary"
          // Not turned off under the person who pressed it (its focus would be lost).
          isDisabled={!unknown && page >= pages}
          onPress={() => onPageChange(page + 1)}
        >
          {t.screens.pagination.proxima}
        </Button>
      </div>
    </nav>
  );
}

/**
 * The page shown of rows read whole (a report's trips, a geofence's visits): the page asked for,
 * back to the first when `of` changes (another period, another report), and never past the last
 * (a new read with fewer rows).
 */
export function useRowsPage<T>(rows: T[], limit: number, of: unknown) {
  const [wanted, setWanted] = useState({ of, page: 1 });
  const pages = Math.max(1, Math.ceil(rows.length / limit));
  const page = wanted.of === of ? Math.min(wanted.page, pages) : 1;
  return {
    page,
    rows: rows.slice((page - 1) * limit, page * limit),
    setPage: (next: number) => setWanted({ of, page: next }),
  };
}
