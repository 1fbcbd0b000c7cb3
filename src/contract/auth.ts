/**
 * Auth calls of SPEC §7: login, refresh, validation, activeEmail (set a password with a
 * first-access or recovery token), forgetPassword and push token registration.
 */
import * as v from 'valibot';
import { EmailSchema, REQUIRED } from './common';
import * as o from './objects';
import { RoleSchema } from './roles';

export const PASSWORD_MIN = 8;

export const LoginRequestSchema = o.strictObject({
  email: EmailSchema,
  password: v.pipe(v.string(), v.nonEmpty('Informe a senha'), v.maxLength(200)),
});
export type LoginRequest = v.InferInput<typeof LoginRequestSchema>;

export const NewPasswordSchema = v.pipe(
  v.string(),
  v.minLength(PASSWORD_MIN, `A senha deve ter pelo menos ${PASSWORD_MIN} caracteres`),
  v.maxLength(200, 'A senha deve ter no máximo 200 caracteres'),
  v.regex(/[A-Za-z]/, 'A senha deve ter pelo menos uma letra'),
  v.regex(/\d/, 'A senha deve ter pelo menos um número'),
);

export const SessionUserSchema = o.object({
  id: v.string(),
  sub: v.string(),
  email: v.string(),
  name: v.string(),
  role: RoleSchema,
  active: v.picklist([0, 1]),
  clientId: v.string(),
  companyId: v.string(),
  clientName: v.string(),
  permissions: v.array(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
  /**
   * Present (true) when the user's company requires two-step sign-in of them and it is not on
   * yet: the session may only turn it on (or sign out) until then.
   */
  twoFactorSetupRequired: v.optional(v.literal(true)),
});
export type SessionUser = v.InferOutput<typeof SessionUserSchema>;

export const AuthResponseSchema = o.object({
  user: SessionUserSchema,
  accessToken: v.string(),
  refreshToken: v.string(),
});
export type AuthResponse = v.InferOutput<typeof AuthResponseSchema>;

/** The password step's answer for an account with two steps (src/contract/two-factor.ts). */
export const TwoFactorChallengeSchema = o.object({
  twoFactorRequired: v.literal(true),
  challenge: v.string(),
});

/** POST registros/auth/login: a session, or the second step for an account with two steps. */
export const LoginResponseSchema = v.union([AuthResponseSchema, TwoFactorChallengeSchema]);
export type LoginResponse = v.InferOutput<typeof LoginResponseSchema>;

export const RefreshRequestSchema = o.strictObject({
  refreshToken: v.pipe(v.string(), v.nonEmpty(REQUIRED), v.maxLength(512)),
});

/** POST registros/auth/logout: ends the session this refresh token belongs to. */
export const LogoutRequestSchema = RefreshRequestSchema;

export const SAME_PASSWORD = 'A nova senha deve ser diferente da atual';

/** PUT registros/auth/password: the signed-in user changes their own password. */
export const ChangePasswordRequestSchema = v.pipe(
  o.strictObject({
    currentPassword: v.pipe(v.string(), v.nonEmpty('Informe a senha atual'), v.maxLength(200)),
    newPassword: NewPasswordSchema,
  }),
  v.forward(
    v.check((input) => input.currentPassword !== input.newPassword, SAME_PASSWORD),
    ['newPassword'],
  ),
);
export type ChangePasswordRequest = v.InferInput<typeof ChangePasswordRequestSchema>;

export const ActiveEmailRequestSchema = o.strictObject({ password: NewPasswordSchema });

export const ForgetPasswordRequestSchema = o.strictObject({ email: EmailSchema });

export const PushTokenRequestSchema = o.strictObject({
  token: v.pipe(v.string(), v.trim(), v.nonEmpty(REQUIRED), v.maxLength(4096)),
});
