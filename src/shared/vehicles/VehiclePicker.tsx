/**
 * A vehicle picker that searches on the server: what the person types goes to GET
 * registros/vehicle as `vehicleQuery` (plate or name, a plate with or without its dash), and
 * the options come 10 at a time (SPEC §9) with "Mostrar mais" for the next page. A customer
 * with thousands of vehicles can pick any of them; nothing is loaded before the list opens or
 * the person types. The chosen vehicle keeps its 'placa | nome' label (SPEC §3).
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ComboBox as AriaComboBox } from 'react-aria-components';
import { keys } from '../../api/keys';
import { vehiclesApi } from '../../api/resources';
import { VEHICLE_SEARCH_PAGE, vehicleOption } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { useDebounced } from '../../hooks/useDebounced';
import { t } from '../../i18n/pt-BR';
import { ComboBoxParts } from '../../ui/ComboBox';
import type { SelectOption } from '../../ui/Select';
import '../../ui/Select.css';
import '../../ui/TextField.css';
import '../../ui/text.css';

const MORE = '\u0000more';

/** One customer's vehicles matching a search, a page of 10 at a time, read as needed. */
export function useVehicleSearch(clientId: string | null, search: string, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: keys.resourceList(vehiclesApi.path, {
      clientId,
      vehicleQuery: search,
      limit: VEHICLE_SEARCH_PAGE,
      sort: 'plate',
    }),
    queryFn: ({ pageParam }) =>
      vehiclesApi.list({
        clientId,
        vehicleQuery: search,
        limit: VEHICLE_SEARCH_PAGE,
        page: pageParam,
        sort: 'plate',
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    enabled: enabled && Boolean(clientId),
    placeholderData: keepPreviousData,
  });
  useErrorToast(query.error, t.vehicles.loadError);
  const pages = query.data?.pages ?? [];
  return {
    options: pages.flatMap((page) => page.vehicles.map(vehicleOption)),
    total: pages[0]?.total ?? 0,
    more: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    loading: query.isFetching,
  };
}

export function VehiclePicker({
  clientId,
  label,
  value,
  onChange,
  exclude,
  errorMessage,
  isRequired,
  placeholder = t.vehicles.pickerPlaceholder,
  className = 'field',
}: {
  clientId: string | null;
  label: string;
  value: string | null;
  onChange: (id: string | null, option?: SelectOption) => void;
  /** Vehicles not offered (already linked, say). */
  exclude?: ReadonlySet<string>;
  errorMessage?: string | undefined;
  isRequired?: boolean;
  placeholder?: string;
  className?: string;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<SelectOption | null>(null);
  // A vehicle chosen before (from the address, a saved filter): its label is read once.
  const known = useQuery({
    queryKey: keys.resourceItem(vehiclesApi.path, value ?? ''),
    queryFn: () => vehiclesApi.get(value ?? ''),
    enabled: Boolean(value) && chosen?.value !== value,
  });
  // Cleared by the screen (after a save): the field empties too.
  useEffect(() => {
    if (value !== null) return;
    setChosen(null);
    setText('');
  }, [value]);
  useEffect(() => {
    if (!known.data || chosen?.value === known.data.id) return;
    const option = vehicleOption(known.data);
    setChosen(option);
    setText(option.label);
  }, [known.data, chosen]);
  // The chosen vehicle's label is what the field shows: no search for it.
  const typed = chosen && text === chosen.label ? '' : text;
  const search = useDebounced(typed.trim(), 250);
  const found = useVehicleSearch(clientId, search, open || typed !== '');
  const options = found.options.filter((o) => !exclude?.has(o.value));
  const items = [
    ...options.map((o) => ({ ...o, id: o.value })),
    ...(found.more
      ? [{ id: MORE, value: MORE, label: t.vehicles.pickerMore(found.options.length, found.total) }]
      : []),
  ];
  return (
    <AriaComboBox
      className={className}
      items={items}
      inputValue={text}
      onInputChange={setText}
      onOpenChange={setOpen}
      menuTrigger="focus"
      selectedKey={value}
      onSelectionChange={(key) => {
        if (key === MORE) {
          // The next page joins the list; the text typed stays (the list opens again with
          // the arrow keys or a keystroke).
          const kept = text;
          found.loadMore();
          setTimeout(() => setText(kept));
          return;
        }
        const option = items.find((o) => o.id === key) ?? null;
        setChosen(option);
        setText(option?.label ?? '');
        onChange(option ? option.value : null, option ?? undefined);
      }}
      allowsEmptyCollection
      isRequired={isRequired}
      isDisabled={!clientId}
      isInvalid={Boolean(errorMessage)}
    >
      <ComboBoxParts
        label={label}
        placeholder={placeholder}
        errorMessage={errorMessage}
        empty={found.loading ? t.vehicles.loading : t.vehicles.pickerNone}
      />
    </AriaComboBox>
  );
}
