/**
 * /recover-password: without a token, asks for the e-mail and sends the recovery link;
 * with the link's token, sets the new password.
 */
import { type FormEvent, useState } from 'react';
import { Form, Link } from 'react-aria-components';
import { forgetPassword } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { emailCheck } from '../../ui/field-checks';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import { AuthCard } from './AuthCard';
import { SetPasswordForm, useTokenParam } from './SetPasswordForm';
import '../../ui/page.css';
import './AuthCard.css';

function RequestLinkForm() {
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ kind: 'error' | 'success'; text: string }>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    try {
      const { message } = await forgetPassword(email);
      setResult({ kind: 'success', text: message });
    } catch (err) {
      setResult({ kind: 'error', text: (await toClientError(err)).message });
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="form">
      {result && <FormMessage kind={result.kind}>{result.text}</FormMessage>}
      <TextField
        label={t.login.email}
        type="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        isRequired
        validate={emailCheck}
        autoFocus
      />
      <Button type="submit" isPending={pending}>
        {pending ? t.password.sending : t.password.send}
      </Button>
      <Link href="/login" className="text-link">
        {t.password.backToLogin}
      </Link>
    </Form>
  );
}

export function RecoverPasswordPage() {
  const token = useTokenParam();
  return (
    <AuthCard
      title={t.password.recoverTitle}
      intro={token ? t.password.newPasswordIntro : t.password.recoverIntro}
    >
      {token ? <SetPasswordForm token={token} /> : <RequestLinkForm />}
    </AuthCard>
  );
}
