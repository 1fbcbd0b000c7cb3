/** /account: the signed-in user's data, fetched fresh from the server. */
import { useEffect, useState } from 'react';
import { validateSession } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { session } from '../../api/session';
import { ROLE_LABELS, type SessionUser } from '../../contract';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { FormMessage, Loading } from '../../ui/States';

export function AccountPage() {
  const current = useSession();
  const [user, setUser] = useState<SessionUser>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let active = true;
    validateSession()
      .then((fresh) => {
        if (!active) return;
        session.setUser(fresh);
        setUser(fresh);
      })
      .catch(async (err: unknown) => {
        if (active) setError((await toClientError(err)).message);
      });
    return () => {
      active = false;
    };
  }, []);

  const shown = user ?? (error ? current?.user : undefined);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">Minha conta</h1>
      </div>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {!shown && !error && <Loading label={t.layout.loadingUser} />}
      {shown && (
        <dl className="details" aria-label="Dados da conta">
          <dt>Nome</dt>
          <dd>{shown.name}</dd>
          <dt>E-mail</dt>
          <dd>{shown.email}</dd>
          <dt>{t.layout.role}</dt>
          <dd>{ROLE_LABELS[shown.role]}</dd>
          <dt>{t.layout.customer}</dt>
          <dd>{shown.clientName}</dd>
        </dl>
      )}
    </section>
  );
}
