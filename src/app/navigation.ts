/**
 * The areas of Rastro (SPEC §2), their labels and the breadcrumb built from a path. Every
 * signed-in route comes from this list, so navigation, breadcrumbs and the router agree.
 */
import { ROUTE_LABELS, t } from '../i18n/pt-BR';
import { foldText } from '../lib/text';

export interface Area {
  path: string;
  label: string;
  /** Sub-areas listed in the menu and on the section page. */
  children?: Area[];
  /** Has a '/create' screen. */
  creatable?: boolean;
}

const label = (path: string) => ROUTE_LABELS[path.split('/').pop() ?? ''] ?? path;
const area = (path: string, extra: Partial<Area> = {}): Area => ({
  path,
  label: label(path),
  ...extra,
});

export const AREAS: Area[] = [
  { path: '/', label: t.home },
  area('/dashboard'),
  area('/fleet-management', {
    children: [
      area('/fleet-management/geofences', { creatable: true }),
      area('/fleet-management/alerts/alerts-history'),
    ],
  }),
  area('/reports', {
    children: [
      area('/reports/histories'),
      area('/reports/journeys'),
      area('/reports/positions'),
      area('/reports/distances'),
      area('/reports/auto-report-rules', { creatable: true }),
    ],
  }),
  area('/management', {
    children: [
      area('/management/vehicles', { creatable: true }),
      area('/management/trackers', { creatable: true }),
      area('/management/simcards', { creatable: true }),
      area('/management/drivers', { creatable: true }),
      area('/management/fleets', { creatable: true }),
      area('/management/tracker-types', { creatable: true }),
      area('/management/temporary-links'),
      area('/management/customers', { creatable: true }),
      area('/management/users', { creatable: true }),
    ],
  }),
];

/** Every area, sections and sub-areas, flattened. */
export function allAreas(areas: Area[] = AREAS): Area[] {
  return areas.flatMap((a) => [a, ...allAreas(a.children ?? [])]);
}

export interface Crumb {
  path: string;
  label: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * 'Mapa' then one crumb per path segment, labelled as SPEC §2 names the segments; a record
 * id reads 'Editar'.
 */
export function breadcrumbs(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [{ path: '/', label: t.home }];
  segments.forEach((segment, i) => {
    const decoded = decodeURIComponent(segment);
    crumbs.push({
      path: `/${segments.slice(0, i + 1).join('/')}`,
      label:
        ROUTE_LABELS[decoded] ?? (UUID.test(decoded) ? (ROUTE_LABELS.edit ?? decoded) : decoded),
    });
  });
  return crumbs;
}

/** Menu filtering: keeps areas whose label (or a child's) matches, accent-insensitively. */
export function filterAreas(areas: Area[], query: string): Area[] {
  const q = foldText(query.trim());
  if (!q) return areas;
  return areas.flatMap((a) => {
    const children = filterAreas(a.children ?? [], query);
    if (foldText(a.label).includes(q)) return [a];
    return children.length ? [{ ...a, children }] : [];
  });
}
