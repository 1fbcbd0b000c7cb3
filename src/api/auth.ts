/** Auth calls of SPEC §7, parsed with the contract before anything stores them. */
import * as v from 'valibot';
import {
  AuthResponseSchema,
  type ChangePasswordRequest,
  type LoginRequest,
  LoginResponseSchema,
  MessageSchema,
  SessionUserSchema,
} from '../contract';
import { api } from './client';

/** A session, or `{ twoFactorRequired, challenge }` for an account with two steps. */
const sessionOrChallenge = (body: unknown) => v.parse(LoginResponseSchema, body);

export async function signIn(body: LoginRequest) {
  return sessionOrChallenge(await api.post('registros/auth/login', { json: body }).json());
}

/** A sign-in that must give a session at once (an account without two steps). */
export async function login(body: LoginRequest) {
  return v.parse(AuthResponseSchema, await api.post('registros/auth/login', { json: body }).json());
}

export async function validateSession() {
  return v.parse(SessionUserSchema, await api.get('registros/auth/validation').json());
}

/** Sets a password with the one-time token of a first-access or recovery e-mail. */
export async function activeEmail(token: string, password: string) {
  const body = await api
    .post('registros/auth/activeEmail', {
      json: { password },
      headers: { Authorization: `Bearer ${token}` },
    })
    .json();
  return sessionOrChallenge(body);
}

/** Moves the account to the new e-mail address with the token of the link sent to it. */
export async function confirmEmail(token: string) {
  const body = await api
    .post('registros/auth/confirmEmail', { headers: { Authorization: `Bearer ${token}` } })
    .json();
  return v.parse(MessageSchema, body);
}

export async function forgetPassword(email: string) {
  return v.parse(
    MessageSchema,
    await api.post('registros/auth/forgetPassword', { json: { email } }).json(),
  );
}

export async function subscribePushToken(token: string) {
  await api.put('registros/push/subscribe-token', { json: { token } });
}

/** 'Minha conta': changes the user's password; the server ends their other sessions. */
export async function changePassword(body: ChangePasswordRequest) {
  return v.parse(MessageSchema, await api.put('registros/auth/password', { json: body }).json())
    .message;
}

/** 'Sair de todas as sessões': ends every session of the user, this one included. */
export async function logoutEverywhere() {
  return v.parse(MessageSchema, await api.post('registros/auth/logout-all').json()).message;
}
