/**
 * /confirm-email?token=…: the link sent to a new e-mail address. The change is made by the
 * button, not by opening the page: mail scanners that open links must not confirm it.
 */
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { confirmEmail } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { FormMessage } from '../../ui/States';
import { AuthCard } from './AuthCard';
import { useTokenParam } from './SetPasswordForm';
import './AuthCard.css';

export function ConfirmEmailPage() {
  const token = useTokenParam();
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string }>();
  const [pending, setPending] = useState(false);

  async function confirm() {
    if (!token) return;
    setPending(true);
    try {
      // Every session of the account ends with the change: the next call signs this one out.
      const { message } = await confirmEmail(token);
      setOutcome({ kind: 'success', text: message });
    } catch (err) {
      setOutcome({ kind: 'error', text: (await toClientError(err)).message });
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthCard title={t.emailChange.title} intro={token ? t.emailChange.intro : undefined}>
      {!token && <FormMessage kind="error">{t.password.missingToken}</FormMessage>}
      {outcome && <FormMessage kind={outcome.kind}>{outcome.text}</FormMessage>}
      {token && outcome?.kind !== 'success' && (
        <Button onPress={confirm} isPending={pending}>
          {pending ? t.emailChange.confirming : t.emailChange.confirm}
        </Button>
      )}
      <Link href="/login" className="text-link">
        {t.password.backToLogin}
      </Link>
    </AuthCard>
  );
}
