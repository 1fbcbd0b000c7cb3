/**
 * A screen of an area: its title and, until the feature that fills it lands, an empty state.
 * Section pages (Gestão, Relatórios, Gestão de Frotas) list the sub-areas the user may open.
 */
import { Link } from 'react-aria-components';
import { useSession } from '../../hooks/useSession';
import { AREA_HINTS } from '../../i18n/area-hints';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { type Area, areasFor, canWrite } from '../../shared/areas/areas';
import { EmptyState } from '../../ui/States';
import '../../ui/Button.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './AreaPage.css';

export function AreaPage({ area, create = false }: { area: Area; create?: boolean }) {
  const role = useSession()?.user.role;
  const title = create ? `${area.label}: ${ROUTE_LABELS.create}` : area.label;
  const children = area.children && role ? areasFor(role, area.children) : [];
  const writable = role !== undefined && canWrite(area, role);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{title}</h1>
        {area.creatable && writable && !create && (
          <Link href={`${area.path}/create`} className="btn btn-primary">
            {ROUTE_LABELS.create}
          </Link>
        )}
      </div>
      {area.children ? (
        <>
          <h2 className="visually-hidden">{t.empty.areas}</h2>
          <ul className="area-cards">
            {children.map((child) => {
              const hint = AREA_HINTS[child.path];
              const id = `area-${child.path.replace(/\W+/g, '-')}`;
              // Named by its title alone, described by its line (a screen reader reads both).
              return (
                <li key={child.path}>
                  <Link
                    href={child.path}
                    className="area-card"
                    aria-labelledby={`${id}-title`}
                    aria-describedby={hint ? `${id}-hint` : undefined}
                  >
                    <span id={`${id}-title`}>{child.label}</span>
                    {hint && (
                      <span id={`${id}-hint`} className="area-card-hint">
                        {hint}
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      ) : (
        <EmptyState title={t.empty.soon} />
      )}
    </section>
  );
}
