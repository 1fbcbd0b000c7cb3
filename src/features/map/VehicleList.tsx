/**
 * The list beside the map: every vehicle with its pictogram, state, speed and the age of its
 * last fix (ticking by itself), searchable by plate — as people type it, 'abc-1d23' too —
 * name and driver, virtualised so 10,000 rows scroll as smoothly as ten. Choosing a row
 * selects the vehicle and follows it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  GridList,
  GridListItem,
  ListLayout,
  type Selection,
  Virtualizer,
} from 'react-aria-components';
import { type LocationItem, markerIcon } from '../../contract';
import { matchesSearch, searchable } from '../../lib/text';
import { formatSpeed, STATE_COLORS, STATE_LABELS, vehicleState } from '../../lib/vehicle-state';
import { Age } from '../../ui/Age';
import { SearchInput } from '../../ui/SearchInput';

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

export function VehicleList({
  items: incoming,
  selectedId,
  onChoose,
  now,
}: {
  items: LocationItem[];
  selectedId: string | null;
  onChoose(id: string): void;
  now: number;
}) {
  const throttled = useThrottled(incoming, 1000);
  // The first rows show at once; only later changes wait for their turn.
  const items = throttled.length === 0 ? incoming : throttled;
  const [search, setSearch] = useState('');
  const indexed = useMemo(
    () =>
      items
        .map((item) => ({
          item,
          text: searchable(`${item.plate ?? ''} ${item.name} ${item.driver ?? ''}`),
        }))
        .sort((a, b) => collator.compare(a.item.plate ?? a.item.name, b.item.plate ?? b.item.name)),
    [items],
  );
  const shown = useMemo(
    () =>
      search.trim()
        ? indexed.filter((row) => matchesSearch(row.text, search)).map((row) => row.item)
        : indexed.map((row) => row.item),
    [indexed, search],
  );

  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (key !== undefined) onChoose(String(key));
  };

  return (
    <div className="vehicle-list">
      <SearchInput
        label="Buscar veículo"
        placeholder="Placa, nome ou motorista"
        value={search}
        onChange={setSearch}
      />
      <p className="vehicle-list-count" aria-live="polite">
        {shown.length === items.length
          ? `${items.length} ${items.length === 1 ? 'veículo' : 'veículos'}`
          : `${shown.length} de ${items.length} veículos`}
      </p>
      <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: ROW_HEIGHT }}>
        <GridList
          aria-label="Veículos"
          className="vehicle-rows"
          items={shown}
          selectionMode="single"
          selectionBehavior="replace"
          disallowEmptySelection
          selectedKeys={selectedId ? [selectedId] : []}
          onSelectionChange={onSelectionChange}
          // Rows are redrawn when the clock moves a state ('Sem sinal' appears by itself).
          dependencies={[now]}
          renderEmptyState={() => (
            <p className="empty-hint">
              {items.length ? 'Nenhum veículo encontrado.' : 'Nenhum veículo com posição ainda.'}
            </p>
          )}
        >
          {(item) => {
            const state = vehicleState(item, now);
            return (
              <GridListItem
                id={item.id}
                textValue={`${item.plate ?? ''} ${item.name}`}
                className="vehicle-row"
              >
                <span
                  className="vehicle-badge"
                  style={{ borderColor: STATE_COLORS[state] }}
                  aria-hidden="true"
                >
                  <img src={markerIcon(item.vehicleType ?? 'default')} alt="" />
                </span>
                <span className="vehicle-row-main">
                  <strong>{item.plate ?? item.name}</strong>
                  <span className="vehicle-row-name">{item.plate ? item.name : ''}</span>
                </span>
                <span className="vehicle-row-side">
                  <span style={{ color: STATE_COLORS[state] }}>{STATE_LABELS[state]}</span>
                  <span>
                    {formatSpeed(item.speed)} · <Age at={item.fixTime} />
                  </span>
                </span>
              </GridListItem>
            );
          }}
        </GridList>
      </Virtualizer>
    </div>
  );
}
