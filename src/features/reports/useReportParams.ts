/**
 * A report screen's choices, kept in the address: `?vehicles=id,id&from=…&to=…` (or
 * `drivers=`), so the screen can be reloaded or opened from the Relatórios list as it was.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type DayRange, today } from '../../lib/day-range';

export interface ReportChoice {
  ids: string[];
  range: DayRange;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function useReportParams(key: 'vehicles' | 'drivers' = 'vehicles') {
  const [params, setParams] = useSearchParams();
  const ids = params.get(key);
  const from = params.get('from');
  const to = params.get('to');
  const choice = useMemo<ReportChoice>(() => {
    const day = today();
    return {
      ids: ids ? ids.split(',').filter(Boolean) : [],
      range: {
        from: from && DAY.test(from) ? from : day,
        to: to && DAY.test(to) ? to : from && DAY.test(from) ? from : day,
      },
    };
  }, [ids, from, to]);
  const submitted = Boolean(ids);
  const choose = useCallback(
    (next: ReportChoice) =>
      setParams(
        (current) => {
          const out = new URLSearchParams(current);
          out.set(key, next.ids.join(','));
          out.set('from', next.range.from);
          out.set('to', next.range.to);
          return out;
        },
        { replace: false },
      ),
    [setParams, key],
  );
  return { choice, submitted, choose };
}
