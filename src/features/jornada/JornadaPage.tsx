/**
 * Jornada do motorista (/reports/jornada): a driver's days over a period as the server works
 * them out (Lei 13.103/2015): a bar per day from 00:00 to 24:00 coloured by what the driver
 * was doing, the day's totals, and the rules broken, with when and by how much.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { jornadaDays, jornadaFile, jornadaMarks } from '../../api/jornada';
import { isUnavailable } from '../../api/query';
import type { JornadaDay, Mark, PeriodSource } from '../../contract';
import { toastError, useErrorToast } from '../../hooks/feedback';
import { jornadaText as text } from '../../i18n/jornada';
import { t } from '../../i18n/pt-BR';
import { formatDay } from '../../lib/format';
import { dayStart, nextDay, reportDay } from '../../lib/report-period';
import { TIME_ZONE } from '../../lib/schedule';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { useDriverOptions } from '../../shared/drivers/useDriverOptions';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/States';
import { saveFile } from '../../ui/save-file';
import { TextField } from '../../ui/TextField';
import '../../ui/badge.css';
import '../../ui/page.css';
import { JornadaSettings } from './JornadaSettings';
import './JornadaPage.css';

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString('pt-BR', {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
  });

function DayRow({ day, marks }: { day: JornadaDay; marks: Mark[] }) {
  const start = dayStart(day.day).getTime();
  const length = dayStart(nextDay(day.day)).getTime() - start;
  const at = (iso: string) => ((Date.parse(iso) - start) / length) * 100;
  // The day's driving by where it comes from: the driver's tag, or the vehicle's assignment.
  const bySource = [
    ...day.periods
      .filter((p) => p.kind === 'driving')
      .reduce(
        (sum, p) =>
          sum.set(p.source, (sum.get(p.source) ?? 0) + Date.parse(p.end) - Date.parse(p.start)),
        new Map<PeriodSource, number>(),
      ),
  ];
  return (
    <li className="jornada-day">
      <div className="jornada-day-head">
        <strong>{formatDay(day.day)}</strong>
        <span>
          {day.start && day.end ? `${clock(day.start)} – ${clock(day.end)}` : text.noWork}
        </span>
      </div>
      <div className="jornada-bar" role="img" aria-label={text.timeline(formatDay(day.day))}>
        {day.periods
          .filter((p) => p.kind !== 'rest' || p.source !== 'inferido')
          .map((p) => (
            <span
              key={`${p.start}-${p.kind}`}
              className={`jornada-period jornada-${p.kind}`}
              style={{
                left: `${at(p.start)}%`,
                width: `${Math.max(at(p.end) - at(p.start), 0.2)}%`,
              }}
              title={`${text.kinds[p.kind]} ${clock(p.start)}–${clock(p.end)}, ${text.periodSources[p.source]}`}
            />
          ))}
      </div>
      <div className="jornada-ticks" aria-hidden="true">
        {[0, 6, 12, 18, 24].map((h) => (
          <span key={h}>{text.hour(h)}</span>
        ))}
      </div>
      <dl className="jornada-totals">
        {(Object.keys(text.totals) as (keyof typeof text.totals)[]).map((key) => (
          <div key={key}>
            <dt>{text.totals[key]}</dt>
            <dd>{text.hm(day.totals[key])}</dd>
          </div>
        ))}
      </dl>
      {bySource.length > 0 && (
        <ul className="jornada-sources" aria-label={text.drivingPeriods(formatDay(day.day))}>
          {bySource.map(([source, ms]) => (
            <li key={source}>
              {text.kinds.driving} {text.hm(Math.round(ms / 60_000))}{' '}
              <span className={source === 'designacao' ? 'badge badge-warning' : 'muted'}>
                {text.periodSources[source]}
              </span>
            </li>
          ))}
        </ul>
      )}
      {marks.length > 0 && (
        <ul className="jornada-marks" aria-label={`${text.marks} ${formatDay(day.day)}`}>
          {marks.map((m) => (
            <li key={m.id}>
              {text.markKinds[m.kind]} {clock(m.at)}{' '}
              <span className="muted">{text.markSources[m.source]}</span>
            </li>
          ))}
        </ul>
      )}
      {day.violations.length > 0 && (
        <ul className="jornada-violations">
          {day.violations.map((v) => (
            <li key={`${v.rule}-${v.start}`}>
              <span className="badge badge-danger">{text.rules[v.rule]}</span> {clock(v.start)}–
              {clock(v.end)}, {text.by(v.minutes)}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function JornadaPage() {
  const [clientId, setClientId] = useSelectedClient();
  const drivers = useDriverOptions(clientId);
  const [driverId, setDriverId] = useState<string | null>(null);
  const today = reportDay(Date.now());
  const [from, setFrom] = useState(reportDay(Date.now() - 6 * 86_400_000));
  const [to, setTo] = useState(today);
  const chosen = driverId ?? drivers[0]?.value ?? null;
  const query = useQuery({
    queryKey: ['jornada', chosen, from, to],
    queryFn: () => jornadaDays(chosen ?? '', from, to),
    enabled: Boolean(chosen) && from <= to,
  });
  useErrorToast(query.error, text.loadError);
  const marks = useQuery({
    queryKey: ['jornada', 'marks', chosen, from, to],
    queryFn: () => jornadaMarks(chosen ?? '', from, to),
    enabled: Boolean(chosen) && from <= to,
  });
  const report = query.data;
  type FileChoice = keyof typeof text.files;
  const download = useMutation({
    mutationFn: (choice: FileChoice) => {
      // The espelho is the month of the period's last day, whole.
      const month = to.slice(0, 7);
      const [year = 1970, monthNumber = 1] = month.split('-').map(Number);
      // Day 0 of the next month is the last of this one.
      const monthEnd = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
      return jornadaFile(chosen ?? '', {
        from: choice === 'espelho' ? `${month}-01` : from,
        to: choice === 'espelho' ? monthEnd : to,
        format: choice === 'excel' ? 'excel' : 'pdf',
        kind: choice === 'espelho' ? 'espelho' : 'jornada',
      });
    },
    onSuccess: ({ blob, name }) => saveFile(blob, name),
    onError: (error) => void toastError(text.downloadError, error),
  });
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.title}</h1>
      </div>
      <div className="filters">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <Select
          label={text.driver}
          value={chosen ?? ''}
          onChange={(next) => setDriverId(next || null)}
          options={drivers}
        />
        <TextField label={text.from} type="date" value={from} onChange={setFrom} />
        <TextField label={text.to} type="date" value={to} onChange={setTo} />
      </div>
      <div className="jornada-actions">
        {(Object.keys(text.files) as FileChoice[]).map((choice) => (
          <Button
            key={choice}
            variant="secondary"
            isDisabled={!chosen || download.isPending}
            onPress={() => download.mutate(choice)}
          >
            {download.isPending && download.variables === choice
              ? text.downloading
              : text.files[choice]}
          </Button>
        ))}
      </div>
      <JornadaSettings clientId={clientId} />
      <ul className="jornada-legend" aria-label={text.title}>
        {(Object.keys(text.kinds) as (keyof typeof text.kinds)[]).map((kind) => (
          <li key={kind}>
            <span className={`jornada-swatch jornada-${kind}`} /> {text.kinds[kind]}
          </li>
        ))}
      </ul>
      {isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{text.offline}</p>
        </EmptyState>
      ) : !chosen ? (
        <EmptyState title={text.title}>
          <p>{text.chooseDriver}</p>
        </EmptyState>
      ) : report ? (
        <>
          <p className="jornada-rules">
            {text.regime[report.regime]} · {text.overtimeLimit(report.overtimeLimitMinutes)}
          </p>
          <ul className="jornada-days">
            {report.days.map((day) => (
              <DayRow
                key={day.day}
                day={day}
                marks={(marks.data ?? []).filter((m) => reportDay(Date.parse(m.at)) === day.day)}
              />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
