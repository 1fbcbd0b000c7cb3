/**
 * Sets a password with the one-time token of an e-mail link (first access or recovery) and
 * signs the user in. The rules are the contract's, checked here and again by the server.
 */
import { type FormEvent, useState } from 'react';
import { Form, Link } from 'react-aria-components';
import { useNavigate, useSearchParams } from 'react-router';
import * as v from 'valibot';
import { activeEmail } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { session } from '../../api/session';
import { NewPasswordSchema } from '../../contract';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage } from '../../ui/States';
import { PasswordField } from '../../ui/TextField';
import '../../ui/page.css';
import './AuthCard.css';

export function SetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = v.safeParse(NewPasswordSchema, password);
    const next = {
      password: parsed.success ? undefined : parsed.issues[0].message,
      confirm: confirm === password ? undefined : t.password.mismatch,
    };
    setErrors(next);
    if (next.password || next.confirm) return;
    setPending(true);
    try {
      const answer = await activeEmail(token, password);
      toast.success(t.password.saved);
      // With two steps on, the new password is not enough: the sign-in page asks the code.
      if ('challenge' in answer) {
        navigate('/login', { replace: true, state: { challenge: answer.challenge } });
        return;
      }
      session.set(answer);
      navigate('/', { replace: true });
    } catch (err) {
      setErrors({ form: (await toClientError(err)).message });
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="form" validationBehavior="aria">
      {errors.form && <FormMessage kind="error">{errors.form}</FormMessage>}
      <PasswordField
        label={t.password.newPassword}
        autoComplete="new-password"
        description={t.password.rules}
        value={password}
        onChange={setPassword}
        errorMessage={errors.password}
        isRequired
        autoFocus
      />
      <PasswordField
        label={t.password.confirm}
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
        errorMessage={errors.confirm}
        isRequired
      />
      <Button type="submit" isPending={pending}>
        {pending ? t.password.saving : t.password.save}
      </Button>
      <Link href="/login" className="text-link">
        {t.password.backToLogin}
      </Link>
    </Form>
  );
}

export function useTokenParam(): string | null {
  const [params] = useSearchParams();
  return params.get('token');
}
