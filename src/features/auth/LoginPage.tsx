/**
 * /login: e-mail and password; errors from the server are shown as it words them. An account
 * with two-step sign-in is then asked its code (or one of its recovery codes).
 */
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Form, Link } from 'react-aria-components';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { signIn } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { session } from '../../api/session';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { emailCheck, filledCheck } from '../../ui/field-checks';
import { FormMessage } from '../../ui/States';
import { PasswordField, TextField } from '../../ui/TextField';
import { AuthCard } from './AuthCard';
import '../../ui/page.css';
import './AuthCard.css';

// Only accounts with two steps need it: it loads after their password, not before the page.
const CodeStep = lazy(() => import('./CodeStep').then((m) => ({ default: m.CodeStep })));

interface LoginState {
  from?: string;
  /** Set by a password link of an account with two steps: go straight to the code. */
  challenge?: string;
}

export function LoginPage() {
  const current = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as LoginState | null;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [challenge, setChallenge] = useState(state?.challenge);
  const from = state?.from ?? '/';

  if (current) return <Navigate to={from} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      const answer = await signIn({ email, password });
      if ('challenge' in answer) setChallenge(answer.challenge);
      else {
        session.set(answer);
        navigate(from, { replace: true });
      }
    } catch (err) {
      setError((await toClientError(err)).message);
    }
    setPending(false);
  }

  return (
    <AuthCard title={t.login.title}>
      {challenge ? (
        <Suspense fallback={null}>
          <CodeStep
            challenge={challenge}
            onSignedIn={() => navigate(from, { replace: true })}
            onRestart={() => setChallenge(undefined)}
          />
        </Suspense>
      ) : (
        <Form onSubmit={submit} className="form">
          {error && <FormMessage kind="error">{error}</FormMessage>}
          <TextField
            label={t.login.email}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={setEmail}
            isRequired
            validate={emailCheck}
            autoFocus
          />
          <PasswordField
            label={t.login.password}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            isRequired
            validate={filledCheck}
          />
          <Button type="submit" isPending={pending}>
            {pending ? t.login.submitting : t.login.submit}
          </Button>
          <Link href="/recover-password" className="text-link">
            {t.login.forgot}
          </Link>
        </Form>
      )}
    </AuthCard>
  );
}
