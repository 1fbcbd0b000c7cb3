/**
 * Sessions: what a successful sign-in, refresh or password set returns, and the e-mails that
 * lead to /create-password (first access) and /recover-password (recovery).
 */
import { randomUUID } from 'node:crypto';
import { type AuthResponse, ROLE_PERMISSIONS, type SessionUser } from '../../../src/contract';
import type { Deps } from '../../deps';
import type { Mail } from '../../mail/mailer';
import {
  emailChangeNoticeMail,
  emailConfirmMail,
  firstAccessMail,
  recoveryMail,
} from '../../mail/templates';
import type { Db } from '../../platform/db/client';
import {
  type PasswordTokenPurpose,
  storePasswordToken,
  storeRefreshToken,
} from '../queries/tokens';
import type { UserRecord } from '../queries/users';
import { newOpaqueToken, signAccessToken } from './tokens';

export function toSessionUser(user: UserRecord): SessionUser {
  return {
    id: user.id,
    sub: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    active: user.active ? 1 : 0,
    clientId: user.clientId,
    companyId: user.clientId,
    clientName: user.clientName,
    permissions: [...ROLE_PERMISSIONS[user.role]],
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    ...(user.twoFactorSetupRequired ? { twoFactorSetupRequired: true } : {}),
  };
}

/**
 * Signs an access token and returns it with a refresh token: the successor already stored by
 * a rotation, or the first token of a new family (sign-in, password set).
 */
export async function issueSession(
  deps: Deps,
  user: UserRecord,
  rotated?: { refreshToken: string; familyId: string },
): Promise<AuthResponse> {
  let session = rotated;
  if (!session) {
    const fresh = newOpaqueToken();
    const familyId = randomUUID();
    await storeRefreshToken(deps.database.db, {
      userId: user.id,
      familyId,
      tokenHash: fresh.hash,
      expiresAt: new Date(
        Date.now() + Math.min(deps.config.refreshTokenTtl, deps.config.sessionMaxAge) * 1000,
      ),
    });
    session = { refreshToken: fresh.token, familyId };
  }
  const accessToken = await signAccessToken(
    user,
    deps.secret,
    deps.config.accessTokenTtl,
    Date.now(),
    session.familyId,
  );
  return { user: toSessionUser(user), accessToken, refreshToken: session.refreshToken };
}

const PAGES: Record<PasswordTokenPurpose, string> = {
  first_access: '/create-password',
  recovery: '/recover-password',
};

/** Creates a one-time set-password token and e-mails its link. Returns the link. */
export async function sendSetPasswordMail(
  deps: Deps,
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  purpose: PasswordTokenPurpose,
  db: Db = deps.database.db,
): Promise<string> {
  const { mail, link } = await setPasswordMail(deps, user, purpose, db);
  await deps.mailer.send(mail);
  return link;
}

/** Creates a one-time set-password token and writes the e-mail with its link, not sent yet. */
export async function setPasswordMail(
  deps: Deps,
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  purpose: PasswordTokenPurpose,
  db: Db = deps.database.db,
): Promise<{ mail: Mail; link: string }> {
  const { token, hash } = newOpaqueToken();
  const ttl = deps.config.setPasswordTokenTtl;
  await storePasswordToken(db, {
    userId: user.id,
    purpose,
    tokenHash: hash,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  const link = `${deps.config.publicUrl}${PAGES[purpose]}?token=${encodeURIComponent(token)}`;
  const hours = Math.round(ttl / 3600);
  const mail =
    purpose === 'first_access'
      ? firstAccessMail(user, link, hours)
      : recoveryMail(user, link, hours);
  return { mail, link };
}

/**
 * A change of one's own e-mail: a one-time link to the new address, which moves the account
 * when opened, and a notice to the old one (with the way back: password recovery, which
 * voids the pending link). Returns the confirmation link.
 */
export async function sendEmailChangeMails(
  deps: Deps,
  user: Pick<UserRecord, 'id' | 'email' | 'name'>,
  newEmail: string,
): Promise<string> {
  const { token, hash } = newOpaqueToken();
  const ttl = deps.config.setPasswordTokenTtl;
  await storePasswordToken(deps.database.db, {
    userId: user.id,
    purpose: 'email_change',
    newEmail,
    tokenHash: hash,
    expiresAt: new Date(Date.now() + ttl * 1000),
  });
  const link = `${deps.config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  await deps.mailer.send(
    emailConfirmMail({ email: newEmail, name: user.name }, link, Math.round(ttl / 3600)),
  );
  await deps.mailer.send(
    emailChangeNoticeMail(user, newEmail, `${deps.config.publicUrl}/recover-password`),
  );
  return link;
}
