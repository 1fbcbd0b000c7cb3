/** The customer's geofences beside the map: a search, and each fence's name, shape and limit. */
import { useMemo } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import type { Geofence } from '../../contract';
import { geofencesText } from '../../i18n/geofences';
import { foldText } from '../../lib/text';
import { describeGeometry } from '../../map/geofence-shapes';
import { SearchInput } from '../../ui/SearchInput';
import { EmptyState } from '../../ui/States';
import '../../ui/text.css';
import './GeofencesPage.css';

export function GeofenceList({
  geofences,
  read,
  emptyTitle,
  fleetShown,
  onOpen,
  search,
  onSearch,
}: {
  geofences: Geofence[];
  /** The search outlives the list while a fence is open: kept by the page. */
  search: string;
  onSearch: (search: string) => void;
  /** Whether the mirror answered (until then, no "none yet"). */
  read: boolean;
  emptyTitle: string;
  /** The customer's vehicles are drawn instead of fences: say so. */
  fleetShown: boolean;
  onOpen: (id: string) => void;
}) {
  const shown = useMemo(() => {
    const q = foldText(search.trim());
    return q ? geofences.filter((g) => foldText(g.name).includes(q)) : geofences;
  }, [geofences, search]);
  return (
    <>
      <SearchInput label={geofencesText.search} value={search} onChange={onSearch} />
      {read && shown.length === 0 ? (
        <EmptyState title={emptyTitle}>{fleetShown && <p>{geofencesText.fleetDots}</p>}</EmptyState>
      ) : (
        <ul className="geofence-list" aria-label={geofencesText.list}>
          {shown.map((g) => (
            <li key={g.id}>
              <AriaButton className="geofence-item" onPress={() => onOpen(g.id)}>
                <span
                  className="geofence-swatch"
                  style={{ background: g.color }}
                  aria-hidden="true"
                />
                <span>
                  <strong>{g.name}</strong>
                  <span className="muted">
                    {describeGeometry(g.geometry)}
                    {g.speedLimit !== null ? ` · até ${g.speedLimit} km/h` : ''}
                  </span>
                </span>
              </AriaButton>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
