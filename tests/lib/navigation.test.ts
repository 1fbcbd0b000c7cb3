import { describe, expect, it } from 'vitest';
import { AREA_HINTS } from '../../src/i18n/area-hints';
import {
  AREAS,
  allAreas,
  areaOf,
  areasFor,
  breadcrumbs,
  canOpen,
  canRemove,
  canWrite,
  filterAreas,
} from '../../src/shared/areas/areas';

describe('breadcrumbs', () => {
  it('labels each path segment as the spec names it', () => {
    expect(breadcrumbs('/reports/auto-report-rules/create')).toEqual([
      { path: '/', label: 'Mapa' },
      { path: '/reports', label: 'Relatórios' },
      { path: '/reports/auto-report-rules', label: 'Relatórios Automatizados' },
      { path: '/reports/auto-report-rules/create', label: 'Criar' },
    ]);
    expect(breadcrumbs('/fleet-management/geofences').map((c) => c.label)).toEqual([
      'Mapa',
      'Gestão de Frotas',
      'Cercas eletrônicas',
    ]);
  });

  it('names an area as its menu and title do, under the sections the menu puts it in', () => {
    // The history's path runs through the rules', but the menu has them side by side.
    expect(breadcrumbs('/fleet-management/alerts/alerts-history').map((c) => c.label)).toEqual([
      'Mapa',
      'Gestão de Frotas',
      'Histórico de alertas',
    ]);
    // A rule's own page is under the rules.
    expect(
      breadcrumbs('/fleet-management/alerts/7a59a5d2-dc33-4efa-9625-d1c1ceb4f7bf').map(
        (c) => c.label,
      ),
    ).toEqual(['Mapa', 'Gestão de Frotas', 'Regras de alerta', 'Editar']);
    expect(breadcrumbs('/fleet-management/alerts/create').map((c) => c.label)).toEqual([
      'Mapa',
      'Gestão de Frotas',
      'Regras de alerta',
      'Criar',
    ]);
  });

  it("reads a record id as 'Editar'", () => {
    expect(
      breadcrumbs('/management/users/7a59a5d2-dc33-4efa-9625-d1c1ceb4f7bf').at(-1)?.label,
    ).toBe('Editar');
  });

  it('keeps other unknown segments as they are', () => {
    expect(breadcrumbs('/management/vehicles/abc-123').at(-1)).toEqual({
      path: '/management/vehicles/abc-123',
      label: 'abc-123',
    });
  });
});

describe('AREAS', () => {
  it('covers every route label of SPEC §2', () => {
    const labels = allAreas().map((a) => a.label);
    for (const label of [
      'Históricos',
      'Jornadas',
      'Posições',
      'Distâncias Percorridas',
      'Relatórios Automatizados',
      'Relatórios',
      'Gestão',
      'Veículos',
      'Dashboard',
      'Gestão de Frotas',
      'Cercas eletrônicas',
      'Usuários',
      'Clientes',
    ]) {
      expect(labels).toContain(label);
    }
  });
});

describe('filterAreas', () => {
  it('finds areas by label without accents and keeps their section', () => {
    const found = filterAreas(AREAS, 'distancias');
    expect(found.map((a) => a.label)).toEqual(['Relatórios']);
    expect(found[0]?.children?.map((a) => a.label)).toEqual(['Distâncias Percorridas']);
  });
  it('returns everything for an empty query and nothing for no match', () => {
    expect(filterAreas(AREAS, ' ')).toBe(AREAS);
    expect(filterAreas(AREAS, 'xyz')).toEqual([]);
  });
});

describe('who opens what', () => {
  const area = (path: string) => {
    const found = allAreas().find((a) => a.path === path);
    if (!found) throw new Error(path);
    return found;
  };
  it("gives a Terceiro the map, their vehicles and their vehicles' alerts, read-only, and nothing else", () => {
    expect(allAreas(areasFor('VISITOR')).map((a) => a.path)).toEqual([
      '/',
      '/fleet-management',
      '/fleet-management/alerts/alerts-history',
      '/management',
      '/management/vehicles',
    ]);
    expect(canWrite(area('/management/vehicles'), 'VISITOR')).toBe(false);
    expect(canWrite(area('/fleet-management/alerts/alerts-history'), 'VISITOR')).toBe(false);
  });
  it('lets a Cliente read but never write, and an Operador write but never remove', () => {
    for (const a of allAreas()) expect(canWrite(a, 'CLIENT'), a.path).toBe(false);
    expect(canOpen(area('/management/customers'), 'CLIENT')).toBe(true);
    expect(canOpen(area('/management/users'), 'CLIENT')).toBe(false);
    for (const a of allAreas()) expect(canRemove(a, 'OPERATOR'), a.path).toBe(false);
    expect(canWrite(area('/management/vehicles'), 'OPERATOR')).toBe(true);
    expect(canRemove(area('/management/vehicles'), 'MANAGER')).toBe(true);
  });
  it("names a record's crumb after what the user may do with it", () => {
    const path = '/management/vehicles/7a59a5d2-dc33-4efa-9625-d1c1ceb4f7bf';
    expect(breadcrumbs(path).at(-1)?.label).toBe('Editar');
    expect(breadcrumbs(path, 'Detalhes').at(-1)?.label).toBe('Detalhes');
    expect(areaOf(path)?.path).toBe('/management/vehicles');
  });
});

describe('section pages', () => {
  it('say in a line what each of their areas is for, and hint at nothing else', () => {
    // Relatórios is a page of its own (the report form and the list of those asked).
    const listed = AREAS.filter((area) => area.path !== '/reports')
      .flatMap((area) => area.children ?? [])
      .map((child) => child.path);
    for (const path of listed) expect(AREA_HINTS[path], path).toMatch(/^\p{Lu}.+\.$/u);
    expect(Object.keys(AREA_HINTS).sort()).toEqual([...listed].sort());
  });
});
