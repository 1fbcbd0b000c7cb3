/**
 * Custos da frota (/reports/fleet-costs): per vehicle and month, fuel, maintenance, other
 * expenses, total, km driven and cost per km, with the period's totals; as PDF or XLSX too.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fleetCostFile, fleetCosts } from '../../api/refuels';
import type { FleetCostRow } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { refuelsText } from '../../i18n/refuels';
import { formatCurrency } from '../../lib/format';
import { reportDay } from '../../lib/report-period';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { saveFile } from '../../ui/save-file';
import { TextField } from '../../ui/TextField';
import '../../ui/page.css';
import '../../ui/text.css';
import './FleetCostsPage.css';

const text = refuelsText;
const km = (x: number) => x.toLocaleString('pt-BR', { maximumFractionDigits: 1 });
const money = (x: number | null) => (x === null ? '—' : formatCurrency(x));
const monthText = (m: string) => `${m.slice(5, 7)}/${m.slice(0, 4)}`;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const columns: ColumnDef<FleetCostRow & { id: string }>[] = [
  { id: 'month', label: text.month, rowHeader: true, render: (r) => monthText(r.month) },
  { id: 'vehicle', label: text.vehicle, render: (r) => `${r.plate} | ${r.name}` },
  { id: 'fuel', label: text.fuel, render: (r) => money(r.fuel) },
  { id: 'maintenance', label: text.maintenance, render: (r) => money(r.maintenance) },
  { id: 'other', label: text.other, render: (r) => money(r.other) },
  { id: 'total', label: text.totalRow, render: (r) => <strong>{money(r.total)}</strong> },
  { id: 'km', label: text.kmDriven, render: (r) => km(r.km) },
  { id: 'cpk', label: text.costPerKm, render: (r) => money(r.costPerKm) },
];

export function FleetCostsPage() {
  const [clientId, setClientId] = useSelectedClient();
  const thisMonth = reportDay(Date.now()).slice(0, 7);
  const [from, setFrom] = useState(thisMonth);
  const [to, setTo] = useState(thisMonth);
  const [busy, setBusy] = useState<'pdf' | 'excel' | null>(null);
  const [fileError, setFileError] = useState<unknown>(null);
  const valid = MONTH.test(from) && MONTH.test(to) && from <= to;
  const params = clientId && valid ? { clientId, from, to } : undefined;
  const query = useQuery({
    queryKey: ['fleet-costs', params],
    queryFn: () => fleetCosts(params as NonNullable<typeof params>),
    enabled: Boolean(params),
  });
  useErrorToast(query.error, text.costsError);
  useErrorToast(fileError, text.fileError);

  async function file(format: 'pdf' | 'excel') {
    if (!params) return;
    setBusy(format);
    setFileError(null);
    try {
      const blob = await fleetCostFile(params, format);
      saveFile(blob, `custos_frota_relatorio.${format === 'pdf' ? 'pdf' : 'xlsx'}`);
    } catch (err) {
      setFileError(err);
    } finally {
      setBusy(null);
    }
  }

  const totals = query.data?.totals;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{text.costsTitle}</h1>
      </div>
      <p className="muted">{text.costsHint}</p>
      <div className="filters">
        <CustomerPicker value={clientId} onChange={setClientId} />
        <TextField label={text.fromMonth} type="month" value={from} onChange={setFrom} />
        <TextField label={text.toMonth} type="month" value={to} onChange={setTo} />
      </div>
      <div className="fleet-costs-actions">
        <Button
          variant="secondary"
          isDisabled={!params}
          isPending={busy === 'pdf'}
          onPress={() => void file('pdf')}
        >
          {text.pdf}
        </Button>
        <Button
          variant="secondary"
          isDisabled={!params}
          isPending={busy === 'excel'}
          onPress={() => void file('excel')}
        >
          {text.excel}
        </Button>
      </div>
      <DataTable
        label={text.costsTitle}
        columns={columns}
        rows={(query.data?.rows ?? []).map((r) => ({ ...r, id: `${r.vehicleId}|${r.month}` }))}
        empty={text.noCosts}
        loading={query.isLoading}
      />
      {totals && query.data && query.data.rows.length > 0 && (
        <p>
          <strong>{text.totalRow}:</strong>{' '}
          {text.totalsLine(
            money(totals.total),
            money(totals.fuel),
            money(totals.maintenance),
            money(totals.other),
            km(totals.km),
            money(totals.costPerKm),
          )}
        </p>
      )}
    </section>
  );
}
