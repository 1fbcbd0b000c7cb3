/**
 * What other rooms may ask of alerts through the caller's eyes (the dashboard's alert figures
 * count what the alert list shows): kept out of the routes, which no other room's routes import.
 */

import type { Deps } from '../deps';
import type { Ctx } from '../owned/mold';
import { notFound } from '../platform/http/errors';
import { linkedVehicleIds } from '../sharing/queries';
import { subtreeIds } from '../tenancy/queries';
import { canSeeClient, visibleClientIds } from '../tenancy/scope';
import type { AlertScope } from './queries/alerts';

/** What the caller sees of alerts, narrowed to a customer's subtree when one is chosen. */
export async function alertScope(c: Ctx, deps: Deps, clientId?: string): Promise<AlertScope> {
  let clientIds = await visibleClientIds(c, deps);
  if (clientId) {
    if (!(await canSeeClient(c, deps, clientId))) throw notFound('Cliente não encontrado');
    const visible = new Set(clientIds);
    clientIds = (await subtreeIds(deps.database.db, clientId)).filter((id) => visible.has(id));
  }
  const vehicleIds =
    c.var.user.role === 'VISITOR'
      ? await linkedVehicleIds(deps.database.db, c.var.user.id)
      : undefined;
  return { clientIds, vehicleIds };
}
