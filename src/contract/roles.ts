/**
 * User levels (SPEC §6) and who may grant which. The order is the order of power: a user may
 * only hand out levels that the rules below allow for their own role.
 */
import * as v from 'valibot';
import { REQUIRED } from './common';

export const ROLES = ['VISITOR', 'CLIENT', 'OPERATOR', 'MANAGER', 'ADMINISTRATOR'] as const;
export type Role = (typeof ROLES)[number];
/** None chosen ('', null or absent) is a missing field, said as every required field says it. */
export const RoleSchema = v.picklist(ROLES, (issue) =>
  issue.input === undefined || issue.input === null || issue.input === ''
    ? REQUIRED
    : 'Nível de acesso inválido',
);

/** Label in level selectors. */
export const ROLE_SELECTOR_LABELS: Record<Role, string> = {
  VISITOR: 'Terceiro',
  CLIENT: 'Usuário',
  OPERATOR: 'Operador',
  MANAGER: 'Gestor',
  ADMINISTRATOR: 'Administrador',
};

/** Label everywhere else. */
export const ROLE_LABELS: Record<Role, string> = {
  ...ROLE_SELECTOR_LABELS,
  CLIENT: 'Cliente',
};

/** SPEC §6: everyone may pick Terceiro, Usuário, Operador; Gestor needs MANAGER or above;
 * Administrador needs ADMINISTRATOR. */
export function assignableRoles(actor: Role): Role[] {
  const base: Role[] = ['VISITOR', 'CLIENT', 'OPERATOR'];
  if (actor === 'MANAGER') return [...base, 'MANAGER'];
  if (actor === 'ADMINISTRATOR') return [...base, 'MANAGER', 'ADMINISTRATOR'];
  return base;
}

export function canAssignRole(actor: Role, target: Role): boolean {
  return assignableRoles(actor).includes(target);
}
