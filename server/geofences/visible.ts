/**
 * What other rooms may ask of geofences through the caller's eyes: kept out of routes.ts, which
 * no other room's routes import (one room's routes reach another's only through a module like
 * this one).
 */

import type { Deps } from '../deps';
import type { Ctx } from '../owned/mold';
import { ancestorIds } from '../tenancy/queries';
import { visibleClientIds } from '../tenancy/scope';
import { geofencesIn } from './queries';

/**
 * Of the geofence ids a rule names, those it may not: a rule may name live geofences the
 * caller sees, of its customer or a company above it (those its vehicles' maps hold).
 */
export async function missingRuleGeofences(
  c: Ctx,
  deps: Deps,
  clientId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const visible = new Set(c.var.user.role === 'VISITOR' ? [] : await visibleClientIds(c, deps));
  const chain = (await ancestorIds(deps.database.db, clientId)).filter((id) => visible.has(id));
  const found = new Set((await geofencesIn(deps.database.db, ids, chain)).map((g) => g.id));
  return ids.filter((id) => !found.has(id));
}
