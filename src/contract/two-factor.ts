/**
 * Two-step sign-in (TOTP): turning it on and off in 'Minha conta', and the second step of a
 * sign-in, answered by POST registros/auth/login with `{ twoFactorRequired, challenge }`
 * instead of a session when the account has it on (TwoFactorChallengeSchema, in auth.ts:
 * the sign-in page reads it, and this module stays out of what loads before it).
 */
import * as v from 'valibot';
import { REQUIRED } from './common';
import * as o from './objects';

export const TWO_FACTOR_CODE_LENGTH = 6;
export const TWO_FACTOR_CODE_INVALID = 'Informe os 6 dígitos do código';
export const TWO_FACTOR_ONE_CODE = 'Informe o código do aplicativo ou um código de recuperação';

/** Six digits; the spaces some apps show in the middle do not matter. */
export const TwoFactorCodeSchema = v.pipe(
  v.string(),
  v.maxLength(20, TWO_FACTOR_CODE_INVALID),
  v.transform((code) => code.replace(/\s/g, '')),
  v.regex(/^\d{6}$/, TWO_FACTOR_CODE_INVALID),
);

export const RecoveryCodeSchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(REQUIRED),
  v.maxLength(40, 'Código de recuperação inválido'),
);

const CurrentPasswordSchema = v.pipe(
  v.string(),
  v.nonEmpty('Informe a senha atual'),
  v.maxLength(200),
);

/** A code from the app, or else one of the recovery codes: one of them, not both. */
const codeOrRecovery = {
  code: v.optional(TwoFactorCodeSchema),
  recoveryCode: v.optional(RecoveryCodeSchema),
};
const oneOf = <T extends { code?: string | undefined; recoveryCode?: string | undefined }>() =>
  v.check<T, string>(
    (input) => (input.code === undefined) !== (input.recoveryCode === undefined),
    TWO_FACTOR_ONE_CODE,
  );

/** POST registros/auth/2fa/verify: the second step of a sign-in. */
export const TwoFactorVerifyRequestSchema = v.pipe(
  o.strictObject({
    challenge: v.pipe(v.string(), v.nonEmpty(REQUIRED), v.maxLength(200)),
    ...codeOrRecovery,
  }),
  oneOf(),
);
export type TwoFactorVerifyRequest = v.InferInput<typeof TwoFactorVerifyRequestSchema>;

/** POST registros/auth/2fa/setup. */
export const TwoFactorSetupRequestSchema = o.strictObject({
  currentPassword: CurrentPasswordSchema,
});
export type TwoFactorSetupRequest = v.InferInput<typeof TwoFactorSetupRequestSchema>;

export const TwoFactorSetupSchema = o.object({
  /** Base32, for typing into the app by hand. */
  secret: v.string(),
  otpauthUri: v.string(),
  /** The otpauth URI as a QR code, an SVG document. */
  qrSvg: v.string(),
});
export type TwoFactorSetup = v.InferOutput<typeof TwoFactorSetupSchema>;

/** POST registros/auth/2fa/enable: the first code confirms the app has the secret. */
export const TwoFactorEnableRequestSchema = o.strictObject({ code: TwoFactorCodeSchema });

/** POST registros/auth/2fa/disable and /recovery-codes: the password and a code. */
export const TwoFactorConfirmRequestSchema = v.pipe(
  o.strictObject({ currentPassword: CurrentPasswordSchema, ...codeOrRecovery }),
  oneOf(),
);
export type TwoFactorConfirmRequest = v.InferInput<typeof TwoFactorConfirmRequestSchema>;

/** Shown once; only their hashes are kept. */
export const RecoveryCodesSchema = o.object({ recoveryCodes: v.array(v.string()) });

/** GET registros/auth/2fa. */
export const TwoFactorStatusSchema = o.object({
  enabled: v.boolean(),
  /** The user's company requires two steps of them. */
  required: v.boolean(),
  recoveryCodesLeft: v.number(),
});
export type TwoFactorStatus = v.InferOutput<typeof TwoFactorStatusSchema>;
