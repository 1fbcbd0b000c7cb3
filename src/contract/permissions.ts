/**
 * Who may do what. SPEC §3/§6 name the permissions but not who holds them; this table is the
 * one place that decides it (the server enforces it, the PWA hides what a user cannot do,
 * the README prints it).
 *
 * - VISITOR (Terceiro): sees the map and the vehicles linked to them, nothing else.
 * - CLIENT (Cliente): reads everything of their company subtree and watches the map.
 * - OPERATOR (Operador): control-room work: registers vehicles and trackers and sends
 *   commands, including blocking, but does not remove records or manage people.
 * - MANAGER (Gestor): runs the company: everything an operator does plus removing records,
 *   child companies and users.
 * - ADMINISTRATOR (Administrador): everything, including raw tracker configuration
 *   (AdvancedCommands).
 */
import type { Role } from './roles';

export const PERMISSION_NUMBERS = {
  read_resources: 0,
  create_resources: 1,
  delete_resources: 2,
  view_map: 3,
  send_commands: 4,
} as const;
export type ResourcePermission = keyof typeof PERMISSION_NUMBERS;

export const FEATURES = [
  'PageMonitoring',
  'CrudCompany',
  'AdvancedCommands',
  'BlockVehicle',
  'CrudProduct',
  'CrudUser',
  'LockTrunk',
] as const;
export type Feature = (typeof FEATURES)[number];

export type Permission = ResourcePermission | Feature;

const WATCH: readonly Permission[] = ['read_resources', 'view_map', 'PageMonitoring'];
const OPERATE: readonly Permission[] = [
  ...WATCH,
  'create_resources',
  'send_commands',
  'CrudProduct',
  'BlockVehicle',
  'LockTrunk',
];
const MANAGE: readonly Permission[] = [...OPERATE, 'delete_resources', 'CrudCompany', 'CrudUser'];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  VISITOR: WATCH,
  CLIENT: WATCH,
  OPERATOR: OPERATE,
  MANAGER: MANAGE,
  ADMINISTRATOR: [...MANAGE, 'AdvancedCommands'],
};

export function hasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * Who reads the audit log: those who manage the people whose acts it tells of — the Gestor
 * (his company subtree) and the Administrador. Here, not in audit.ts, because the menu asks
 * it before the sign-in page is left, and audit.ts loads only with its screen.
 */
export const AUDIT_PERMISSION: Permission = 'CrudUser';
