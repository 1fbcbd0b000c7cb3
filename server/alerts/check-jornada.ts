import { JORNADA_ALERT_TYPES } from '../../src/contract';
import { withinWindow } from '../../src/lib/schedule';
import { jornadaAlertItems } from '../jornada/alerts';
import type { AlertContext } from './outlet';
import { activeRulesOfType, ruleScope } from './queries/alert-engine';
import { storeUnplaced } from './store-unplaced';

/**
 * Raises JORNADA_DRIVING_LIMIT (5 h of continuous driving, once per stretch) and
 * JORNADA_REST_SHORT (a journey begun after less than 11 h of rest, once per journey) for
 * the drivers whose tag the vehicles of each rule of those types read (server/jornada/alerts.ts).
 * Returns how many.
 */
export async function checkJornada(context: AlertContext, now: Date): Promise<number> {
  const { db } = context;
  let count = 0;
  for (const type of JORNADA_ALERT_TYPES)
    for (const rule of await activeRulesOfType(db, type)) {
      if (rule.schedule && !withinWindow(rule.schedule, now.getTime())) continue;
      const scope = await ruleScope(db, rule);
      if (scope.vehicleIds.size === 0) continue;
      count += await storeUnplaced(
        context,
        rule,
        type,
        await jornadaAlertItems(db, rule, scope, now),
      );
    }
  return count;
}
