/**
 * A report asked for without signal: the read waits for the connection (the query cache
 * pauses it) and runs by itself when it is back. Says so, where the report would be.
 */

import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { EmptyState } from '../../ui/States';

export function ReportPaused({ query }: { query: { fetchStatus: string } }) {
  if (query.fetchStatus !== 'paused') return null;
  return (
    <EmptyState title={t.network.offline}>
      <p>{reportsText.waitsForNetwork}</p>
    </EmptyState>
  );
}
