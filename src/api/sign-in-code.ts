/**
 * The second step of a sign-in with two steps: the app's code or a recovery code. Apart from
 * auth.ts so that it loads with that step, not before the sign-in page.
 */
import * as v from 'valibot';
import { AuthResponseSchema, type TwoFactorVerifyRequest } from '../contract';
import { api } from './client';

export async function verifyTwoFactor(body: TwoFactorVerifyRequest) {
  return v.parse(
    AuthResponseSchema,
    await api.post('registros/auth/2fa/verify', { json: body }).json(),
  );
}
