/**
 * /account: the signed-in user's data, fetched fresh from the server; changing the password
 * (which ends the user's other sessions) and signing out of every session at once.
 */
import { useEffect, useState } from 'react';
import { logoutEverywhere, validateSession } from '../../api/auth';
import { signOut } from '../../api/client';
import { toClientError } from '../../api/errors';
import { session } from '../../api/session';
import { ROLE_LABELS, type SessionUser } from '../../contract';
import { requireOnline, toastError } from '../../hooks/feedback';
import { useOnline } from '../../hooks/useOnline';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage, Loading } from '../../ui/States';
import { ChangePasswordForm } from './ChangePasswordForm';
import { PushSettings } from './PushSettings';
import { TwoFactorSection } from './TwoFactorSection';

// The screen a company's requirement shows comes with this page's chunk (one chunk, not two).
export { TwoFactorRequiredPage } from './TwoFactorRequiredPage';

import '../../ui/page.css';
import '../../ui/text.css';
import './AccountPage.css';

function SignOutEverywhere() {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);

  async function confirm() {
    if (!requireOnline()) return;
    setPending(true);
    try {
      toast.success(await logoutEverywhere());
      setAsking(false);
      await signOut();
    } catch (err) {
      await toastError(t.account.signOutError, err);
      setPending(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="account-sessions">
      <h2 id="account-sessions">{t.account.sessionsTitle}</h2>
      <p className="muted">{t.account.sessionsIntro}</p>
      <div>
        <Button variant="danger" onPress={() => setAsking(true)}>
          {t.account.signOutEverywhere}
        </Button>
      </div>
      <ConfirmDialog
        title={t.account.confirmTitle}
        confirmLabel={t.account.confirm}
        isOpen={asking}
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
        danger
        pending={pending}
      >
        <p>{t.account.confirmBody}</p>
      </ConfirmDialog>
    </section>
  );
}

export function AccountPage() {
  const current = useSession();
  const [user, setUser] = useState<SessionUser>();
  const [error, setError] = useState<string>();
  const online = useOnline();

  // Without signal the data kept with the session is shown; read fresh once it is back.
  useEffect(() => {
    if (!online) return;
    let active = true;
    validateSession()
      .then((fresh) => {
        if (!active) return;
        session.setUser(fresh);
        setUser(fresh);
        setError(undefined);
      })
      .catch(async (err: unknown) => {
        if (active) setError((await toClientError(err)).message);
      });
    return () => {
      active = false;
    };
  }, [online]);

  const shown = user ?? (error || !online ? current?.user : undefined);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.account.title}</h1>
      </div>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {!shown && !error && <Loading label={t.layout.loadingUser} />}
      {shown && (
        <dl className="details" aria-label={t.screens.accountPage.dadosDaConta}>
          <dt>{t.screens.accountPage.nome}</dt>
          <dd>{shown.name}</dd>
          <dt>{t.screens.accountPage.eMail}</dt>
          <dd>{shown.email}</dd>
          <dt>{t.layout.role}</dt>
          <dd>{ROLE_LABELS[shown.role]}</dd>
          <dt>{t.layout.customer}</dt>
          <dd>{shown.clientName}</dd>
        </dl>
      )}
      <section className="panel" aria-labelledby="change-password">
        <h2 id="change-password">{t.account.changeTitle}</h2>
        <p className="muted">{t.account.changeIntro}</p>
        <ChangePasswordForm />
      </section>
      <TwoFactorSection />
      <PushSettings />
      <SignOutEverywhere />
    </section>
  );
}
