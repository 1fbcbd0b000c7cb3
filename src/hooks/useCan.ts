import { hasPermission, type Permission } from '../contract';
import { useSession } from './useSession';

/** Whether the signed-in user holds a permission (the server enforces it too). */
export function useCan(permission: Permission): boolean {
  const current = useSession();
  return current ? hasPermission(current.user.role, permission) : false;
}
