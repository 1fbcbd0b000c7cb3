/** The menu of every area, with a filter for control rooms that know what they want. */
import { useState } from 'react';
import { Input, Label, Link, SearchField } from 'react-aria-components';
import { useLocation } from 'react-router';
import { t } from '../i18n/pt-BR';
import { AREAS, type Area, filterAreas } from './navigation';

function isCurrent(area: Area, pathname: string) {
  return area.path === '/' ? pathname === '/' : pathname === area.path;
}

function AreaLinks({ areas, pathname }: { areas: Area[]; pathname: string }) {
  return (
    <ul>
      {areas.map((area) => (
        <li key={area.path}>
          <Link
            href={area.path}
            className="nav-link"
            aria-current={isCurrent(area, pathname) ? 'page' : undefined}
          >
            {area.label}
          </Link>
          {area.children && <AreaLinks areas={area.children} pathname={pathname} />}
        </li>
      ))}
    </ul>
  );
}

export function Navigation({ id }: { id: string }) {
  const { pathname } = useLocation();
  const [query, setQuery] = useState('');
  const areas = filterAreas(AREAS, query);
  return (
    <nav id={id} className="sidebar" aria-label={t.layout.navigation}>
      <SearchField value={query} onChange={setQuery} className="field nav-filter">
        <Label className="visually-hidden">{t.layout.filterMenu}</Label>
        <Input placeholder={t.layout.filterMenu} />
      </SearchField>
      {areas.length ? (
        <AreaLinks areas={areas} pathname={pathname} />
      ) : (
        <p className="muted">{t.layout.noMenuMatch}</p>
      )}
    </nav>
  );
}
