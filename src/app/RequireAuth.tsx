/**
 * Guards every signed-in page: without an access token the user goes to /login (and comes
 * back afterwards). Once per visit the token is validated and the stored user refreshed;
 * offline the stored session is trusted so that the app stays usable without signal. A
 * driver's phone (a driver's page session, no user's) opening '/' goes to the driver's page.
 */
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { validateSession } from '../api/auth';
import { hasDriverSession } from '../api/driver-session';
import { toClientError } from '../api/errors';
import { session } from '../api/session';
import { useOnline } from '../hooks/useOnline';
import { useSession } from '../hooks/useSession';
import { t } from '../i18n/pt-BR';
import { toast } from '../ui/feedback/toasts';

export function RequireAuth({ children }: { children: ReactNode }) {
  const current = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const online = useOnline();
  const validated = useRef(false);
  const signedIn = current !== null;

  useEffect(() => {
    if (!signedIn || validated.current || !online) return;
    validated.current = true;
    validateSession()
      .then((user) => session.setUser(user))
      .catch(async (error: unknown) => {
        const failure = await toClientError(error);
        // Offline: keep the stored session. 401: the API client refreshes or signs out.
        if (failure.code === 'NETWORK' || failure.status === 401) return;
        toast.error(t.session.validationFailed, failure.message);
        navigate('/', { replace: true });
      });
  }, [signedIn, online, navigate]);

  if (!current) {
    // The installed app opens at '/': on a driver's phone, that is the driver's page.
    if (location.pathname === '/' && hasDriverSession())
      return <Navigate to="/motorista" replace />;
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  return children;
}
