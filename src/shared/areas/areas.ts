/**
 * The areas of Rastro (SPEC §2), their labels, who may open them and the breadcrumb built
 * from a path. Every signed-in route comes from this list, so the menu, the breadcrumbs, the
 * router and the 'Acesso negado' page agree. Who may do what comes from the one permission
 * matrix (src/contract/permissions.ts); this file only says which permission each area needs.
 */
import { AUDIT_PERMISSION, hasPermission, type Permission, type Role } from '../../contract';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { foldText } from '../../lib/text';

export interface Area {
  path: string;
  label: string;
  /** Sub-areas listed in the menu and on the section page. */
  children?: Area[];
  /** Has a '/create' screen (and edit screens), opened with `write`. */
  creatable?: boolean;
  /** What opening the area needs. Sections need nothing of their own: their children decide. */
  read?: Permission;
  /** What creating and changing its records needs. */
  write?: Permission;
  /** What removing its records needs. */
  remove?: Permission;
  /**
   * A Terceiro's read_resources covers only the vehicles linked to them (the matrix):
   * these are the areas that show those vehicles. Every other reading area is closed to them.
   */
  visitors?: boolean;
}

const label = (path: string) => ROUTE_LABELS[path.split('/').pop() ?? ''] ?? path;
const area = (path: string, extra: Partial<Area> = {}): Area => ({
  path,
  label: label(path),
  read: 'read_resources',
  ...extra,
});
const section = (path: string, children: Area[]): Area => ({ path, label: label(path), children });
const inventory = (
  path: string,
  write: Permission = 'CrudProduct',
  extra: Partial<Area> = {},
): Area => area(path, { creatable: true, write, remove: 'delete_resources', ...extra });

export const HOME: Area = { path: '/', label: t.home, read: 'view_map', visitors: true };

export const AREAS: Area[] = [
  HOME,
  area('/dashboard'),
  section('/fleet-management', [
    area('/fleet-management/geofences', { write: 'create_resources', remove: 'delete_resources' }),
    area('/fleet-management/alerts', {
      label: 'Regras de alerta',
      creatable: true,
      write: 'create_resources',
      remove: 'delete_resources',
    }),
    // A Terceiro reads the alerts of their linked vehicles; acknowledging is writing.
    area('/fleet-management/alerts/alerts-history', { write: 'create_resources', visitors: true }),
    // What each vehicle is due for; its plans and the services done are managed beside it.
    area('/fleet-management/maintenance'),
    inventory('/fleet-management/maintenance-plans', 'create_resources'),
    inventory('/fleet-management/service-records', 'create_resources'),
    // Papers of vehicles and drivers that expire; the list opens on what expires soon.
    inventory('/fleet-management/documents', 'create_resources'),
    // Problems drivers reported from their own page; resolving one is writing.
    area('/fleet-management/driver-reports', { write: 'create_resources' }),
    // What the vehicles cost: refuels (with consumption and a fuel card's import), expenses.
    inventory('/fleet-management/refuels', 'create_resources'),
    inventory('/fleet-management/expenses', 'create_resources'),
  ]),
  section('/reports', [
    area('/reports/histories'),
    area('/reports/journeys'),
    area('/reports/positions'),
    area('/reports/distances'),
    area('/reports/driving'),
    // Drivers' hours against the law (Lei 13.103/2015): a driver's days and what they broke.
    area('/reports/jornada'),
    area('/reports/fleet-costs'),
    area('/reports/auto-report-rules', { creatable: true, write: 'create_resources' }),
  ]),
  section('/management', [
    inventory('/management/vehicles', 'CrudProduct', { visitors: true }),
    inventory('/management/trackers'),
    inventory('/management/simcards'),
    inventory('/management/drivers'),
    inventory('/management/fleets'),
    inventory('/management/tracker-types', 'AdvancedCommands', { remove: 'AdvancedCommands' }),
    // Identifiers that tried to connect without a tracker: no customer's, administrators only.
    area('/management/unknown-devices', {
      read: 'AdvancedCommands',
      write: 'AdvancedCommands',
      remove: 'AdvancedCommands',
    }),
    area('/management/temporary-links', { read: 'create_resources', write: 'create_resources' }),
    inventory('/management/customers', 'CrudCompany', { remove: 'CrudCompany' }),
    inventory('/management/users', 'CrudUser', { read: 'CrudUser', remove: 'CrudUser' }),
    // Who did what: read by those who manage the people (the Gestor and the Administrador).
    area('/management/audit', { read: AUDIT_PERMISSION }),
  ]),
  // A customer's invoices and payments (its people, not a Terceiro).
  area('/payments'),
];

/** Every area, sections and sub-areas, flattened. */
export function allAreas(areas: Area[] = AREAS): Area[] {
  return areas.flatMap((a) => [a, ...allAreas(a.children ?? [])]);
}

/** Whether a role may open an area: its permission, or (a section) one of its children. */
export function canOpen(area: Area, role: Role): boolean {
  if (area.children) return area.children.some((child) => canOpen(child, role));
  if (!area.read || !hasPermission(role, area.read)) return false;
  return role !== 'VISITOR' || area.visitors === true;
}

/** Whether a role may create and change an area's records. */
export function canWrite(area: Area, role: Role): boolean {
  return canOpen(area, role) && area.write !== undefined && hasPermission(role, area.write);
}

/** Whether a role may remove an area's records. */
export function canRemove(area: Area, role: Role): boolean {
  return canWrite(area, role) && area.remove !== undefined && hasPermission(role, area.remove);
}

/** The area of a path: the deepest one the path lies in ('/management/vehicles/123'). */
export function areaOf(pathname: string): Area | undefined {
  return allAreas()
    .filter((a) => pathname === a.path || pathname.startsWith(`${a.path}/`) || a.path === '/')
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** The areas a role may open, sections keeping only the children it may open. */
export function areasFor(role: Role, areas: Area[] = AREAS): Area[] {
  return areas.flatMap((a) => {
    if (!canOpen(a, role)) return [];
    return a.children ? [{ ...a, children: areasFor(role, a.children) }] : [a];
  });
}

export interface Crumb {
  path: string;
  label: string;
}

/** Records whose ids are not UUIDs, named by the area they sit in (an Asaas charge: 'pay_…'). */
const RECORD_LABELS: Record<string, string> = { payments: 'Fatura' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const labelOf = (path: string) => allAreas().find((a) => a.path === path)?.label;

/** The areas from the menu's top down to `target`: its sections, then itself. */
function menuChain(target: Area, areas: Area[] = AREAS): Area[] | undefined {
  for (const a of areas) {
    if (a === target) return [a];
    const below = a.children && menuChain(target, a.children);
    if (below) return [a, ...below];
  }
  return undefined;
}

/**
 * 'Mapa' then one crumb per path segment, labelled as SPEC §2 names the segments; a record
 * id reads 'Editar' (or `recordLabel`: 'Detalhes' for someone who may only read it). A
 * segment that is another area of the menu, not one the page sits under, is left out: the
 * alert history's path runs through the alert rules', but in the menu both sit side by side
 * under 'Gestão de Frotas', and the history is not a page of the rules.
 */
export function breadcrumbs(pathname: string, recordLabel = ROUTE_LABELS.edit): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [{ path: '/', label: t.home }];
  const own = areaOf(pathname);
  const chain = new Set(((own && menuChain(own)) ?? []).map((a) => a.path));
  const areaPaths = new Set(allAreas().map((a) => a.path));
  segments.forEach((segment, i) => {
    const decoded = decodeURIComponent(segment);
    const path = `/${segments.slice(0, i + 1).join('/')}`;
    if (areaPaths.has(path) && !chain.has(path)) return;
    crumbs.push({
      path: `/${segments.slice(0, i + 1).join('/')}`,
      // An area's own label first ('Regras de alerta', as the menu and its title say).
      label:
        labelOf(`/${segments.slice(0, i + 1).join('/')}`) ??
        ROUTE_LABELS[decoded] ??
        (UUID.test(decoded)
          ? (recordLabel ?? decoded)
          : (RECORD_LABELS[segments[i - 1] ?? ''] ?? decoded)),
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
