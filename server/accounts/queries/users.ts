/**
 * User reads needed by authentication: by e-mail for sign-in, by id for every authenticated
 * request (so a deactivated user loses access at once), always with the customer's name and
 * status because a cancelled or inactive customer locks its users out too.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '../../../src/contract';
import type { Db } from '../../platform/db/client';
import { clients } from '../../schema';
import { refreshTokens, users } from '../schema';

export interface UserRecord {
  id: string;
  clientId: string;
  clientName: string;
  clientActive: boolean;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  passwordHash: string | null;
  /** Whether the user signs in with a code after the password. */
  twoFactorEnabled: boolean;
  /** Whether the user's own company requires two steps of them (Gestores, Administradores). */
  twoFactorRequired: boolean;
  /**
   * Whether the user's own company requires two steps of its Gestores and Administradores
   * and this one has not turned them on: such a session may only set them up.
   */
  twoFactorSetupRequired: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: users.id,
  clientId: users.clientId,
  clientName: clients.name,
  clientActive: sql<boolean>`${clients.active} and ${clients.canceledAt} is null`,
  email: users.email,
  name: users.name,
  role: users.role,
  active: users.active,
  passwordHash: users.passwordHash,
  twoFactorEnabled: sql<boolean>`${users.totpEnabledAt} is not null`,
  twoFactorRequired: sql<boolean>`${clients.requireTwoFactor}
    and ${users.role} in ('MANAGER', 'ADMINISTRATOR')`,
  twoFactorSetupRequired: sql<boolean>`${clients.requireTwoFactor}
    and ${users.role} in ('MANAGER', 'ADMINISTRATOR') and ${users.totpEnabledAt} is null`,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

export async function findUserByEmail(db: Db, email: string): Promise<UserRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.canceledAt)))
    .limit(1);
  return rows[0];
}

export async function findUserById(db: Db, id: string): Promise<UserRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(eq(users.id, id), isNull(users.canceledAt)))
    .limit(1);
  return rows[0];
}

/**
 * The user of an access token, with whether its session (refresh-token family) is still
 * open: one round trip for every authenticated request. A signed-out or revoked session
 * stops its access tokens at once, not when they expire.
 */
export async function findUserForSession(
  db: Db,
  id: string,
  familyId: string | undefined,
): Promise<(UserRecord & { sessionOpen: boolean }) | undefined> {
  const open = familyId
    ? sql<boolean>`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId}
        and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`
    : sql<boolean>`true`;
  const rows = await db
    .select({ ...columns, sessionOpen: open })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(eq(users.id, id), isNull(users.canceledAt)))
    .limit(1);
  return rows[0];
}

export async function setUserPassword(db: Db, userId: string, passwordHash: string) {
  await db
    .update(users)
    .set({
      passwordHash,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}
