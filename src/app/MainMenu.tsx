/**
 * The menu: the areas the user's level opens (the permission matrix decides), with a filter
 * for control rooms that know what they want.
 */
import { useState } from 'react';
import { Input, Label, Link, SearchField } from 'react-aria-components';
import { useLocation } from 'react-router';
import { hasContact, useSupportContact } from '../features/payments/SupportContact';
import { useSession } from '../hooks/useSession';
import { t } from '../i18n/pt-BR';
import { type Area, areasFor, filterAreas } from '../shared/areas/areas';
import '../ui/TextField.css';
import '../ui/page.css';
import '../ui/text.css';
import './MainMenu.css';

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

export function MainMenu({ id }: { id: string }) {
  const { pathname } = useLocation();
  const role = useSession()?.user.role;
  const [query, setQuery] = useState('');
  const areas = filterAreas(role ? areasFor(role) : [], query);
  // 'Suporte' only when the server has a support contact configured (SPEC §1).
  const support = useSupportContact().data;
  const supportShown =
    hasContact(support) &&
    filterAreas([{ path: '/support', label: t.support.title }], query).length;
  return (
    <nav id={id} className="sidebar" aria-label={t.layout.navigation}>
      <SearchField value={query} onChange={setQuery} className="field nav-filter">
        <Label className="visually-hidden">{t.layout.filterMenu}</Label>
        <Input placeholder={t.layout.filterMenu} />
      </SearchField>
      {areas.length || supportShown ? (
        <>
          <AreaLinks areas={areas} pathname={pathname} />
          {supportShown ? (
            <ul className="nav-support">
              <li>
                <Link
                  href="/support"
                  className="nav-link"
                  aria-current={pathname === '/support' ? 'page' : undefined}
                >
                  {t.support.title}
                </Link>
              </li>
            </ul>
          ) : null}
        </>
      ) : (
        <p className="muted">{t.layout.noMenuMatch}</p>
      )}
    </nav>
  );
}
