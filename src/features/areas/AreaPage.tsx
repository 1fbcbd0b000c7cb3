/**
 * A screen of an area: its title and, until the feature that fills it lands, an empty state.
 * Section pages (Gestão, Relatórios, Gestão de Frotas) list their sub-areas.
 */
import { Link } from 'react-aria-components';
import type { Area } from '../../app/navigation';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { EmptyState } from '../../ui/States';

export function AreaPage({ area, create = false }: { area: Area; create?: boolean }) {
  const title = create ? `${area.label}: ${ROUTE_LABELS.create}` : area.label;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{title}</h1>
        {area.creatable && !create && (
          <Link href={`${area.path}/create`} className="btn btn-primary">
            {ROUTE_LABELS.create}
          </Link>
        )}
      </div>
      {area.children ? (
        <>
          <h2 className="visually-hidden">{t.empty.areas}</h2>
          <ul className="area-cards">
            {area.children.map((child) => (
              <li key={child.path}>
                <Link href={child.path} className="area-card">
                  {child.label}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <EmptyState title={t.empty.soon} />
      )}
    </section>
  );
}
