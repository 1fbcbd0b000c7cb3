import { Link } from 'react-aria-components';
import { t } from '../../i18n/pt-BR';
import { EmptyState } from '../../ui/States';
import '../../ui/Button.css';
import '../../ui/page.css';

export function NotFoundPage() {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{t.notFound.title}</h1>
      <EmptyState title={t.notFound.body}>
        <Link href="/" className="btn btn-primary">
          {t.notFound.back}
        </Link>
      </EmptyState>
    </section>
  );
}
