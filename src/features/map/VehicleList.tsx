/**
 * The list beside the map: every vehicle with its pictogram, state, speed and the age of its
 * last fix (ticking by itself), searchable by plate — as people type it, 'abc-1d23' too —
 * name and driver, virtualised so 10,000 rows scroll as smoothly as ten. Choosing a row
 * selects the vehicle and follows it.
 *
 * A fix moves no row: the list's collection holds one entry per vehicle with what it is
 * sorted and searched by, rebuilt (and sorted again) only when a vehicle comes, goes or is
 * renamed; each row on screen reads its vehicle's latest fix from a small store. Sorting and
 * folding 10,000 names on every round of fixes was most of the page's work.
 *
 * The grid itself renders again only when its entries or the selection change: react-aria
 * walks the whole collection for every row it renders (aria-rowindex of a virtualised row),
 * 10,000 steps per row on screen. And when many entries appear at once (the first rows, a
 * search cleared) the grid is mounted anew rather than updated: React places inserted
 * children one by one, each looking past all the others just inserted (quadratic), while a
 * fresh mount appends them in one pass.
 */
import {
  createContext,
  memo,
  useCallback,
  useContext,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  GridList,
  GridListItem,
  ListLayout,
  type Selection,
  Virtualizer,
} from 'react-aria-components';
import type { LocationItem } from '../../contract';
import { matchesSearch, searchable, sortKey } from '../../lib/text';
import { formatSpeed, STATE_COLORS, STATE_LABELS, vehicleState } from '../../lib/vehicle-state';
import { Age } from '../../ui/Age';
import { SearchInput } from '../../ui/SearchInput';
import { VehicleBadge } from '../../ui/VehicleBadge';
import './VehicleList.css';
import { t } from '../../i18n/pt-BR';

const ROW_HEIGHT = 64;
/** One collator for every comparison: `localeCompare(…, 'pt-BR')` builds one per call. */
const collator = new Intl.Collator('pt-BR', { numeric: true });

/**
 * The value at most once per `ms`, always ending on the latest one: a list of 10,000 rows
 * need not rebuild on every fix, and a steady stream of fixes must not starve it either.
 */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    void value;
    if (timer.current) return; // a refresh is already due and will take the latest value
    const show = () => {
      timer.current = undefined;
      last.current = Date.now();
      setShown(latest.current);
    };
    const wait = last.current + ms - Date.now();
    if (wait <= 0) show();
    else timer.current = setTimeout(show, wait);
  }, [value, ms]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return shown;
}

/** What the list's collection holds of a vehicle: what it is sorted, searched and read by. */
interface Entry {
  id: string;
  /** The plate (or the name): what the list is sorted by, and the row's title. */
  title: string;
  /** `title` as a key sorting like the collator with plain comparison (see sortKey). */
  key: string | null;
  textValue: string;
  /** What a search looks in (see searchable): folded at the first search, not at load. */
  text?: string;
  /** What the entry was built from. */
  plate: string | null;
  name: string;
  driver: string | null;
}

function searchText(entry: Entry): string {
  entry.text ??= searchable(`${entry.plate ?? ''} ${entry.name} ${entry.driver ?? ''}`);
  return entry.text;
}

function byTitle(a: Entry, b: Entry): number {
  if (a.key !== null && b.key !== null && a.key !== b.key) return a.key < b.key ? -1 : 1;
  return collator.compare(a.title, b.title);
}

/** The entries of `items`, sorted; the very same array while no vehicle came, went or changed name. */
function useEntries(items: LocationItem[]): Entry[] {
  const cache = useRef(new Map<string, Entry>());
  const sorted = useRef<Entry[]>([]);
  return useMemo(() => {
    let changed = items.length !== cache.current.size;
    const next = new Map<string, Entry>();
    for (const item of items) {
      let entry = cache.current.get(item.id);
      if (
        !entry ||
        entry.plate !== item.plate ||
        entry.name !== item.name ||
        entry.driver !== item.driver
      ) {
        changed = true;
        const title = item.plate ?? item.name;
        entry = {
          id: item.id,
          title,
          key: sortKey(title),
          textValue: `${item.plate ?? ''} ${item.name}`,
          plate: item.plate,
          name: item.name,
          driver: item.driver,
        };
      }
      next.set(item.id, entry);
    }
    cache.current = next;
    if (!changed) return sorted.current;
    sorted.current = [...next.values()].sort(byTitle);
    return sorted.current;
  }, [items]);
}

/** The latest fix of every vehicle, for the rows on screen to read by id. */
function createRowStore() {
  let rows = new Map<string, LocationItem>();
  const listeners = new Set<() => void>();
  return {
    set(items: LocationItem[]) {
      rows = new Map(items.map((item) => [item.id, item]));
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    get: (id: string) => rows.get(id),
  };
}
type RowStore = ReturnType<typeof createRowStore>;

/** Entries appearing at once from which the grid mounts anew instead of updating. */
export const REMOUNT_AT = 200;

/**
 * A key for the grid that changes when `REMOUNT_AT` or more entries appear at once (see
 * above); it stays the same for anything smaller, so focus and scroll survive ordinary changes.
 */
function useMountKey(shown: Entry[]): number {
  const previous = useRef<{ shown: Entry[]; ids: Set<string>; key: number }>({
    shown: [],
    ids: new Set(),
    key: 0,
  });
  return useMemo(() => {
    const last = previous.current;
    if (shown === last.shown) return last.key;
    let appeared = 0;
    const ids = new Set<string>();
    for (const entry of shown) {
      ids.add(entry.id);
      if (!last.ids.has(entry.id)) appeared += 1;
    }
    const key = appeared >= REMOUNT_AT ? last.key + 1 : last.key;
    previous.current = { shown, ids, key };
    return key;
  }, [shown]);
}

/** The clock the rows' states are computed against ('Sem sinal' appears by itself). */
const NowContext = createContext(0);

function VehicleRow({ id, store }: { id: string; store: RowStore }) {
  const item = useSyncExternalStore(store.subscribe, () => store.get(id));
  const now = useContext(NowContext);
  if (!item) return null;
  const state = vehicleState(item, now);
  return (
    <>
      <VehicleBadge state={state} type={item.vehicleType} />
      <span className="vehicle-row-main">
        <strong>{item.plate ?? item.name}</strong>
        <span className="vehicle-row-name" title={item.plate ? item.name : undefined}>
          {item.plate ? item.name : ''}
        </span>
      </span>
      <span className="vehicle-row-side">
        <span style={{ color: STATE_COLORS[state] }}>{STATE_LABELS[state]}</span>
        <span>
          {formatSpeed(item.speed)} · <Age at={item.fixTime} />
        </span>
      </span>
    </>
  );
}

/** The grid: rendered again only when what it shows or the selection changes (see above). */
const Rows = memo(function Rows({
  shown,
  empty,
  store,
  selectedId,
  onSelectionChange,
}: {
  shown: Entry[];
  empty: boolean;
  store: RowStore;
  selectedId: string | null;
  onSelectionChange(keys: Selection): void;
}) {
  return (
    <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: ROW_HEIGHT }}>
      <GridList
        aria-label={t.screens.vehicleList.veiculos2}
        className="vehicle-rows"
        items={shown}
        selectionMode="single"
        // Arrows and Tab only move the focus: a keyboard passing through the list must not
        // send the map to each vehicle it crosses. Enter, Space or a click chooses one.
        selectionBehavior="toggle"
        disallowEmptySelection
        selectedKeys={selectedId ? [selectedId] : []}
        onSelectionChange={onSelectionChange}
        renderEmptyState={() => (
          <p className="empty-hint">
            {empty
              ? t.screens.vehicleList.nenhumVeiculoComPosicao
              : t.screens.vehicleList.nenhumVeiculoEncontrado}
          </p>
        )}
      >
        {(entry) => (
          <GridListItem id={entry.id} textValue={entry.textValue} className="vehicle-row">
            <VehicleRow id={entry.id} store={store} />
          </GridListItem>
        )}
      </GridList>
    </Virtualizer>
  );
});

export function VehicleList({
  items: incoming,
  selectedId,
  onChoose,
  onDismiss,
  now,
}: {
  items: LocationItem[];
  selectedId: string | null;
  onChoose(id: string): void;
  /** Escape in the rows: the chosen vehicle's popup closes. */
  onDismiss?(): void;
  now: number;
}) {
  // The map draws first; the list follows (React renders it when the page is free).
  const deferred = useDeferredValue(incoming);
  const throttled = useThrottled(deferred, 1000);
  // The first rows show at once; only later changes wait for their turn.
  const items = throttled.length === 0 ? deferred : throttled;
  const [search, setSearch] = useState('');
  const [store] = useState(createRowStore);
  // Before the browser paints: a new row is never seen without its fix.
  useLayoutEffect(() => store.set(items), [store, items]);
  const entries = useEntries(items);
  const shown = useMemo(
    () =>
      search.trim() ? entries.filter((entry) => matchesSearch(searchText(entry), search)) : entries,
    [entries, search],
  );

  const mountKey = useMountKey(shown);
  const choose = useRef(onChoose);
  choose.current = onChoose;
  const onSelectionChange = useCallback((keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (key !== undefined) choose.current(String(key));
  }, []);

  return (
    // Escape in the grid's rows is seen on its way down: the grid keeps its keyboard and does
    // not let Escape through.
    <div
      className="vehicle-list"
      onKeyDownCapture={(event) => {
        if (event.key !== 'Escape' || !selectedId || !onDismiss) return;
        if (!(event.target as Element).closest('.vehicle-rows')) return;
        onDismiss();
      }}
    >
      <SearchInput
        label={t.screens.vehicleList.buscarVeiculo}
        placeholder={t.screens.vehicleList.placaNomeOuMotorista}
        value={search}
        onChange={setSearch}
      />
      <p className="vehicle-list-count" aria-live="polite">
        {shown.length === items.length
          ? `${items.length} ${items.length === 1 ? t.screens.vehicleList.veiculo : t.screens.vehicleList.veiculos}`
          : `${shown.length} de ${items.length} veículos`}
      </p>
      <NowContext.Provider value={now}>
        <Rows
          key={mountKey}
          shown={shown}
          empty={items.length === 0}
          store={store}
          selectedId={selectedId}
          onSelectionChange={onSelectionChange}
        />
      </NowContext.Provider>
    </div>
  );
}
