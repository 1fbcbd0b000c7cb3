/**
 * The dashboard's 'Comportamento do motorista' card: the month's five best and five worst
 * driving scores of the company, with the change since last month, linking to the report. A
 * Terceiro sees no drivers, so it is not shown to him (the server refuses him too).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-aria-components';
import { drivingReport } from '../../api/driving';
import type { DrivingRow } from '../../contract';
import { drivingText as t } from '../../i18n/driving';
import { reportDay } from '../../lib/report-period';
import './DrivingCard.css';

function Rank({ title, rows }: { title: string; rows: DrivingRow[] }) {
  return (
    <div className="driving-card-list">
      <h3>{title}</h3>
      <ol>
        {rows.map((row) => (
          <li key={row.driverId ?? row.name}>
            <span className="driving-card-name">{row.name}</span>
            <span className="driving-card-score">{row.score?.toLocaleString('pt-BR')}</span>
            <span
              className={`driving-card-delta ${
                row.delta === null ? '' : row.delta >= 0 ? 'driving-card-up' : 'driving-card-down'
              }`}
            >
              {row.delta === null
                ? t.noPrevious
                : row.delta > 0
                  ? t.up(row.delta)
                  : row.delta < 0
                    ? t.down(row.delta)
                    : t.same}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function DrivingCard({ clientId, href }: { clientId: string | null; href?: string }) {
  const month = reportDay(Date.now()).slice(0, 7);
  const query = useQuery({
    queryKey: ['reports', 'driving', month, clientId],
    queryFn: () => drivingReport(month, clientId),
    // The month's events change slowly: no need to follow the dashboard's 30 s refresh.
    staleTime: 5 * 60_000,
  });
  const scored = (query.data?.drivers ?? []).filter((d) => d.score !== null);
  const best = scored.slice(0, 5);
  const worst = scored.slice(Math.max(best.length, scored.length - 5)).reverse();
  return (
    <article className="chart-card driving-card" aria-labelledby="chart-driving">
      <h2 id="chart-driving">{t.cardTitle}</h2>
      {scored.length === 0 ? (
        <p className="muted">{query.isPending ? t.loading : t.cardEmpty}</p>
      ) : (
        <div className="driving-card-lists">
          <Rank title={t.cardBest} rows={best} />
          {worst.length > 0 && <Rank title={t.cardWorst} rows={worst} />}
        </div>
      )}
      {href && <Link href={href}>{t.cardLink}</Link>}
    </article>
  );
}
