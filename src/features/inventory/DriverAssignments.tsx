/**
 * Under a driver's form: the vehicles the driver is assigned to for a period ('designação').
 * A fleet without RFID readers has its untagged driving counted for the assigned driver (the
 * working day, its alerts and the driving score); a tag read always wins. A manager picks a
 * vehicle and the start (and end, or none: until further notice), ends the current one now,
 * and sees the past ones. The server refuses periods that overlap, naming the clash.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { assignmentsApi } from '../../api/assignments';
import { keys } from '../../api/keys';
import type { Assignment, Driver } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { assignmentsText as text } from '../../i18n/assignments';
import { localDateAndClock } from '../../lib/local-time';
import { dayStart, reportDay } from '../../lib/report-period';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { toast } from '../../ui/feedback/toasts';
import { emptyText, Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './DriverAssignments.css';

/** The instant of a São Paulo date and 'hh:mm' (00:00 when no time is given). */
const instantOf = (date: string, time: string) => {
  const [h = 0, m = 0] = (time || '00:00').split(':').map(Number);
  return new Date(dayStart(date).getTime() + (h * 60 + m) * 60_000).toISOString();
};
/** The São Paulo clock 'hh:mm' of an instant. */
const clockOf = (ms: number) => {
  const minutes = Math.floor((ms - dayStart(reportDay(ms)).getTime()) / 60_000);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};

type State = keyof typeof text.states;
const stateOf = (a: Assignment, now: number): State =>
  Date.parse(a.start) > now
    ? 'future'
    : a.end === null || Date.parse(a.end) > now
      ? 'current'
      : 'past';
const BADGES: Record<State, string> = {
  current: 'badge-success',
  future: 'badge-warning',
  past: 'badge-neutral',
};

export function DriverAssignments({ driver }: { driver: Driver }) {
  const canWrite = useCan('create_resources');
  const canRemove = useCan('delete_resources');
  const invalidate = useInvalidate();
  const params = { driverId: driver.id, sort: 'start', order: 'desc' as const, limit: 100 };
  const list = useQuery({
    queryKey: keys.resourceList(assignmentsApi.path, params),
    queryFn: () => assignmentsApi.list(params),
  });
  useErrorToast(list.error, text.loadError);
  const vehicles = useVehicleChoices(driver.clientId);
  const now = Date.now();
  const [vehicleId, setVehicleId] = useState<string | null>(null);
  const [startDate, setStartDate] = useState(() => reportDay(now));
  const [startTime, setStartTime] = useState(() => clockOf(now));
  const [endDate, setEndDate] = useState('');
  const [endTime, setEndTime] = useState('');
  const [errors, setErrors] = useState<{ vehicle?: string; start?: string; end?: string }>({});
  const [removing, setRemoving] = useState<Assignment | null>(null);
  const [pending, setPending] = useState(false);

  const refresh = () => invalidate(['resource', assignmentsApi.path]);

  async function assign(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = {
      ...(vehicleId ? {} : { vehicle: text.chooseVehicle }),
      ...(startDate ? {} : { start: text.startRequired }),
      ...(endTime && !endDate ? { end: text.endTimeWithoutDate } : {}),
    };
    setErrors(found);
    if (Object.keys(found).length > 0 || !vehicleId || !requireOnline()) return;
    setPending(true);
    try {
      await assignmentsApi.create({
        clientId: driver.clientId,
        driverId: driver.id,
        vehicleId,
        start: instantOf(startDate, startTime),
        end: endDate ? instantOf(endDate, endTime) : null,
      });
      toast.success(text.assigned);
      setEndDate('');
      setEndTime('');
      await refresh();
    } catch (err) {
      await toastError(text.saveError, err);
    } finally {
      setPending(false);
    }
  }

  async function endNow(a: Assignment) {
    if (!requireOnline()) return;
    setPending(true);
    try {
      await assignmentsApi.update(a.id, { end: new Date().toISOString() });
      toast.success(text.ended);
      await refresh();
    } catch (err) {
      await toastError(text.endError, err);
    } finally {
      setPending(false);
    }
  }

  async function remove(a: Assignment) {
    if (!requireOnline()) return;
    setPending(true);
    try {
      await assignmentsApi.remove(a.id);
      toast.success(text.removed);
      setRemoving(null);
      await refresh();
    } catch (err) {
      await toastError(text.removeError, err);
    } finally {
      setPending(false);
    }
  }

  const rows = list.data?.assignments ?? [];
  const current = rows.find((a) => stateOf(a, now) === 'current');
  const columns: ColumnDef<Assignment>[] = [
    {
      id: 'vehicle',
      label: text.vehicle,
      rowHeader: true,
      render: (a) => a.plate ?? '—',
    },
    {
      id: 'state',
      label: text.state,
      render: (a) => {
        const state = stateOf(a, now);
        return <span className={`badge ${BADGES[state]}`}>{text.states[state]}</span>;
      },
    },
    { id: 'start', label: text.start, render: (a) => localDateAndClock(a.start) },
    { id: 'end', label: text.end, render: (a) => (a.end ? localDateAndClock(a.end) : text.open) },
    {
      id: 'actions',
      label: '',
      render: (a) => (
        <div className="assignment-actions">
          {canWrite && stateOf(a, now) === 'current' && (
            <Button variant="secondary" onPress={() => void endNow(a)} isPending={pending}>
              {text.endNow}
            </Button>
          )}
          {canRemove && (
            <Button variant="ghost" onPress={() => setRemoving(a)}>
              {text.remove}
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <section className="panel driver-assignments" aria-labelledby="driver-assignments">
      <h2 id="driver-assignments">{text.title}</h2>
      <p className="muted">{text.intro}</p>
      {current && (
        <p className="assignment-current" role="status">
          {text.current(current.plate ?? '—', localDateAndClock(current.start))}
        </p>
      )}
      {canWrite && (
        <Form className="assignment-form" onSubmit={(e) => void assign(e)}>
          <Select
            className="field assignment-vehicle"
            label={text.vehicle}
            options={vehicles.options}
            value={vehicleId}
            onChange={setVehicleId}
            isRequired
            isLoading={vehicles.loading}
            isUnavailable={vehicles.unavailable}
            placeholder={
              vehicles.options.length === 0
                ? emptyText(vehicles.loading, vehicles.unavailable)
                : undefined
            }
            errorMessage={errors.vehicle}
          />
          <div className="assignment-when">
            <TextField
              label={text.startDate}
              type="date"
              value={startDate}
              onChange={setStartDate}
              isRequired
              errorMessage={errors.start}
            />
            <TextField
              label={text.startTime}
              type="time"
              value={startTime}
              onChange={setStartTime}
            />
          </div>
          <div className="assignment-when">
            <TextField
              label={text.endDate}
              type="date"
              value={endDate}
              onChange={setEndDate}
              description={text.endHint}
              errorMessage={errors.end}
            />
            <TextField label={text.endTime} type="time" value={endTime} onChange={setEndTime} />
          </div>
          <Button type="submit" isPending={pending}>
            {text.assign}
          </Button>
        </Form>
      )}
      {list.data && (
        <DataTable label={text.title} columns={columns} rows={rows} empty={text.none} />
      )}
      <ConfirmDialog
        title={text.removeTitle}
        confirmLabel={text.remove}
        isOpen={removing !== null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void remove(removing)}
        danger
        pending={pending}
      >
        {text.removeBody}
      </ConfirmDialog>
    </section>
  );
}
