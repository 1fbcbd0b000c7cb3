/** /create-password?token=…: the first-access link of a new user's e-mail. */
import { Link } from 'react-aria-components';
import { t } from '../../i18n/pt-BR';
import { FormMessage } from '../../ui/States';
import { AuthCard } from './AuthCard';
import { SetPasswordForm, useTokenParam } from './SetPasswordForm';
import './AuthCard.css';

export function CreatePasswordPage() {
  const token = useTokenParam();
  return (
    <AuthCard title={t.password.createTitle} intro={token ? t.password.createIntro : undefined}>
      {token ? (
        <SetPasswordForm token={token} />
      ) : (
        <>
          <FormMessage kind="error">{t.password.missingToken}</FormMessage>
          <Link href="/login" className="text-link">
            {t.password.backToLogin}
          </Link>
        </>
      )}
    </AuthCard>
  );
}
