/**
 * What a typed or old address shows when the user's level does not open it: a clear page,
 * not a form that fails on save nor a list that errors (SPEC §8 'Acesso negado').
 */
import { Link } from 'react-aria-components';
import { ROLE_LABELS } from '../../contract';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { EmptyState } from '../../ui/States';
import '../../ui/Button.css';
import '../../ui/page.css';

export function AccessDeniedPage() {
  const role = useSession()?.user.role;
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{t.denied.title}</h1>
      <EmptyState title={t.denied.body(role ? ROLE_LABELS[role] : '')} locked>
        <Link href="/" className="btn btn-primary">
          {t.denied.back}
        </Link>
      </EmptyState>
    </section>
  );
}
