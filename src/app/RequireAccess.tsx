import type { ReactNode } from 'react';
import { AccessDeniedPage } from '../features/areas/AccessDeniedPage';
import { useSession } from '../hooks/useSession';
import { type Area, canOpen, canWrite } from '../shared/areas/areas';

/**
 * Guards a route by the permission matrix: the area's page needs what opening it needs, its
 * '/create' page what writing needs. Anything else shows 'Acesso negado' in place.
 */
export function RequireAccess({
  area,
  write = false,
  children,
}: {
  area: Area;
  write?: boolean;
  children: ReactNode;
}) {
  const role = useSession()?.user.role;
  const allowed = role !== undefined && (write ? canWrite(area, role) : canOpen(area, role));
  return allowed ? children : <AccessDeniedPage />;
}
