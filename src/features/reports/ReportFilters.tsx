/**
 * The form above every report: customer, vehicle (or vehicles), and the days. The period is
 * checked here with the same rule the server applies (SPEC §5), so a too-long period is
 * explained before anything is asked.
 */
import { type Dispatch, type FormEvent, type SetStateAction, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { type DayRange, periodOf, shiftDay, today } from '../../lib/day-range';
import { periodProblem } from '../../lib/report-period';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { filledCheck } from '../../ui/field-checks';
import { MultiSelect } from '../../ui/MultiSelect';
import { Select } from '../../ui/Select';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import type { ReportChoice } from './useReportParams';
import './reports.css';

/** 'De' and 'Até' of a report's days, on one line together (never split between two). */
export function PeriodFields({
  range,
  onChange,
}: {
  range: DayRange;
  onChange: Dispatch<SetStateAction<DayRange>>;
}) {
  return (
    <div className="field-pair">
      <TextField
        label={reportsText.from}
        type="date"
        value={range.from}
        onChange={(from) => onChange((r) => ({ ...r, from }))}
        isRequired
        validate={filledCheck}
      />
      <TextField
        label={reportsText.to}
        type="date"
        value={range.to}
        onChange={(to) => onChange((r) => ({ ...r, to }))}
        isRequired
        validate={filledCheck}
      />
    </div>
  );
}

export function ReportFilters({
  multiple = false,
  maxHours,
  initial,
  onSubmit,
  busy = false,
}: {
  multiple?: boolean;
  maxHours: number;
  initial: ReportChoice;
  onSubmit: (choice: ReportChoice) => void;
  busy?: boolean;
}) {
  const [clientId, setClientId] = useSelectedClient();
  const { options, loading, unavailable } = useVehicleChoices(clientId);
  const [ids, setIds] = useState(initial.ids);
  const [range, setRange] = useState<DayRange>(initial.range);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    setIds(initial.ids);
    setRange(initial.range);
  }, [initial]);

  const quick = (from: string, to: string) => setRange({ from, to });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ids.length === 0) {
      setProblem(multiple ? reportsText.chooseVehicles : reportsText.chooseVehicle);
      return;
    }
    const { beginAt, endAt } = periodOf(range);
    const reason = periodProblem(beginAt, endAt, maxHours);
    setProblem(reason);
    if (!reason) onSubmit({ ids, range });
  };

  const day = today();
  return (
    <Form
      className="report-filters"
      onSubmit={submit}
      aria-label={t.screens.reportFilters.filtrosDoRelatorio}
    >
      <CustomerPicker value={clientId} onChange={setClientId} />
      {multiple ? (
        <MultiSelect
          label={reportsText.vehicles}
          options={options}
          value={ids}
          onChange={setIds}
          noun={[t.screens.reportFilters.veiculo, t.screens.reportFilters.veiculos]}
          isLoading={loading}
          isUnavailable={unavailable}
        />
      ) : (
        <Select
          label={reportsText.vehicle}
          options={options}
          value={ids[0] ?? null}
          onChange={(id) => setIds([id])}
          isLoading={loading}
          isUnavailable={unavailable}
        />
      )}
      <PeriodFields range={range} onChange={setRange} />
      <fieldset className="report-quick" aria-label={t.screens.reportFilters.periodosRapidos}>
        <Button variant="ghost" onPress={() => quick(day, day)}>
          {reportsText.today}
        </Button>
        <Button variant="ghost" onPress={() => quick(shiftDay(day, -1), shiftDay(day, -1))}>
          {reportsText.yesterday}
        </Button>
        <Button variant="ghost" onPress={() => quick(shiftDay(day, -6), day)}>
          {reportsText.lastWeek}
        </Button>
      </fieldset>
      <Button type="submit" variant="primary" isDisabled={busy}>
        {reportsText.generate}
      </Button>
      {problem && <FormMessage kind="error">{problem}</FormMessage>}
    </Form>
  );
}
