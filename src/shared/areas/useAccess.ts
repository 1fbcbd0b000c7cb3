import { useSession } from '../../hooks/useSession';
import { type Area, allAreas, canOpen, canRemove, canWrite } from './areas';

export interface Access {
  read: boolean;
  write: boolean;
  remove: boolean;
}

const NONE: Access = { read: false, write: false, remove: false };

/** What the signed-in user may do in an area (by its path), from the permission matrix. */
export function useAccess(path: string): Access {
  const role = useSession()?.user.role;
  const area: Area | undefined = allAreas().find((a) => a.path === path);
  if (!role || !area) return NONE;
  return { read: canOpen(area, role), write: canWrite(area, role), remove: canRemove(area, role) };
}
