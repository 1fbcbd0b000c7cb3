/**
 * The check that guards changes to one's own account (password, e-mail, two-step sign-in):
 * the signed-in user types the current password again.
 */
import type { Context } from 'hono';
import type { Deps } from '../../deps';
import { clientAddress } from '../../platform/http/client-address';
import { badRequest } from '../../platform/http/errors';
import type { AuthEnv } from './middleware';
import { verifyPassword } from './passwords';
import { loginKeys, throttledAttempt } from './throttle';

export const WRONG_CURRENT_PASSWORD = 'Senha atual incorreta';

/**
 * Refuses with a 400 under `currentPassword` unless it is the signed-in user's password.
 * Counted like a sign-in: a stolen access token cannot guess the password either.
 */
export async function assertCurrentPassword(
  deps: Deps,
  c: Context<AuthEnv>,
  currentPassword: string,
): Promise<void> {
  const user = c.var.user;
  const keys = loginKeys(user.email, clientAddress(c, deps.config.trustProxy));
  const ok = await throttledAttempt(deps, keys, async () => {
    const right = await verifyPassword(user.passwordHash, currentPassword);
    return { ok: right, value: right };
  });
  if (!ok)
    throw badRequest(WRONG_CURRENT_PASSWORD, [
      { path: 'currentPassword', message: WRONG_CURRENT_PASSWORD },
    ]);
}
