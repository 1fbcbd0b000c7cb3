/** Two-step sign-in in 'Minha conta' (registros/auth/2fa), parsed with the contract. */
import * as v from 'valibot';
import {
  MessageSchema,
  RecoveryCodesSchema,
  type TwoFactorConfirmRequest,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
} from '../contract';
import { api } from './client';

export async function twoFactorStatus() {
  return v.parse(TwoFactorStatusSchema, await api.get('registros/auth/2fa').json());
}

/** A new secret (QR code and text) awaiting its first code. */
export async function startTwoFactorSetup(currentPassword: string) {
  return v.parse(
    TwoFactorSetupSchema,
    await api.post('registros/auth/2fa/setup', { json: { currentPassword } }).json(),
  );
}

/** Confirms the secret with a code; answers the ten recovery codes, shown once. */
export async function enableTwoFactor(code: string) {
  return v.parse(
    RecoveryCodesSchema,
    await api.post('registros/auth/2fa/enable', { json: { code } }).json(),
  ).recoveryCodes;
}

export async function disableTwoFactor(body: TwoFactorConfirmRequest) {
  return v.parse(MessageSchema, await api.post('registros/auth/2fa/disable', { json: body }).json())
    .message;
}

export async function regenerateRecoveryCodes(body: TwoFactorConfirmRequest) {
  return v.parse(
    RecoveryCodesSchema,
    await api.post('registros/auth/2fa/recovery-codes', { json: body }).json(),
  ).recoveryCodes;
}
