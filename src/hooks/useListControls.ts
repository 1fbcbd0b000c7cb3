/**
 * What every list screen keeps: the search (debounced for the API), the page, the page size
 * and the sort; changing any filter goes back to page 1. And the remove-with-confirmation
 * flow: which row is being removed, the call, the toasts and the reload.
 */
import { useState } from 'react';
import type { Sort } from '../ui/DataTable';
import { toast } from '../ui/feedback/toasts';
import type { ListControls, Removal } from '../ui/PagedTable';
import { requireOnline, toastError } from './feedback';
import { useDebounced } from './useDebounced';

export interface ListControlsState extends ListControls {
  search: string;
  setSearch: (search: string) => void;
  /** The search once it has settled (what lists filter by). */
  query: string;
  restart: <T>(set: (value: T) => void) => (value: T) => void;
  params: { search: string; page: number; limit: number; sort: string; order: 'asc' | 'desc' };
}

export function useListControls(initialSort: Sort): ListControlsState {
  const [search, setSearchNow] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimitNow] = useState(10);
  const [sort, setSortNow] = useState<Sort>(initialSort);
  const query = useDebounced(search);
  const restart =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return {
    search,
    setSearch: restart(setSearchNow),
    query,
    page,
    setPage,
    limit,
    setLimit: restart(setLimitNow),
    sort,
    setSort: restart(setSortNow),
    /** Resets the page when another filter changes. */
    restart,
    params: { search: query, page, limit, sort: sort.column, order: sort.direction },
  };
}

export function useRemoval<T>(options: {
  remove: (item: T) => Promise<unknown>;
  done: string;
  errorTitle: string;
  onDone: () => void;
}): Removal<T> & { ask: (item: T) => void } {
  const [target, setTarget] = useState<T>();
  const [pending, setPending] = useState(false);
  async function confirm() {
    if (target === undefined || !requireOnline()) return;
    setPending(true);
    try {
      await options.remove(target);
      toast.success(options.done);
      options.onDone();
    } catch (err) {
      await toastError(options.errorTitle, err);
    } finally {
      setPending(false);
      setTarget(undefined);
    }
  }
  return { target, ask: setTarget, cancel: () => setTarget(undefined), confirm, pending };
}
