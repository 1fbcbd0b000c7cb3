/**
 * Under a driver's form: the driver's personal links to their own page. A manager sets a PIN
 * and how long the link works; the address is shown once (only its hash is kept), with a QR
 * code to open it on the driver's phone. Links are listed with their state and can be revoked.
 */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { createDriverLink, listDriverLinks, revokeDriverLink } from '../../api/driver-page';
import { keys } from '../../api/keys';
import { type Driver, type DriverLink, DriverPinSchema } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { driverPageText as text } from '../../i18n/driver-page';
import { localDateAndClock } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { copyText } from '../../ui/feedback/copy';
import { toast } from '../../ui/feedback/toasts';
import { fieldCheck } from '../../ui/field-checks';
import { QrCode } from '../../ui/QrCode';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './DriverLinks.css';

const pinCheck = fieldCheck(DriverPinSchema);
const DURATIONS = Object.entries(text.linkDurations).map(([days, label]) => ({
  value: days,
  label,
}));
const BADGES: Record<DriverLink['state'], string> = {
  active: 'badge-success',
  locked: 'badge-warning',
  expired: 'badge-neutral',
  revoked: 'badge-neutral',
};

export function DriverLinks({ driver }: { driver: Driver }) {
  const canManage = useCan('CrudUser');
  const invalidate = useInvalidate();
  const links = useQuery({
    queryKey: keys.driverLinks(driver.id),
    queryFn: () => listDriverLinks(driver.id),
    enabled: canManage,
  });
  useErrorToast(links.error, text.links);
  const [pin, setPin] = useState('');
  const [days, setDays] = useState('30');
  const [created, setCreated] = useState<string>();
  const [revoking, setRevoking] = useState<DriverLink | null>(null);
  const [pending, setPending] = useState(false);
  if (!canManage) return null;

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pinCheck(pin) || !requireOnline()) return;
    setPending(true);
    try {
      const made = await createDriverLink({
        driverId: driver.id,
        pin,
        expiresAt: new Date(Date.now() + Number(days) * 86_400_000).toISOString(),
      });
      setCreated(`${location.origin}${made.path}`);
      setPin('');
      toast.success(text.linkCreated);
      await invalidate(keys.driverLinks(driver.id));
    } catch (err) {
      await toastError(text.links, err);
    } finally {
      setPending(false);
    }
  }

  async function revoke(link: DriverLink) {
    if (!requireOnline()) return;
    setPending(true);
    try {
      await revokeDriverLink(link.id);
      toast.success(text.revoked);
      setRevoking(null);
      await invalidate(keys.driverLinks(driver.id));
    } catch (err) {
      await toastError(text.revoke, err);
    } finally {
      setPending(false);
    }
  }

  const columns: ColumnDef<DriverLink>[] = [
    {
      id: 'state',
      label: text.state,
      rowHeader: true,
      render: (l) => <span className={`badge ${BADGES[l.state]}`}>{text.linkStates[l.state]}</span>,
    },
    { id: 'until', label: text.validUntil, render: (l) => localDateAndClock(l.expiresAt) },
    {
      id: 'used',
      label: text.lastUsed,
      render: (l) => (l.lastUsedAt ? localDateAndClock(l.lastUsedAt) : text.never),
    },
    {
      id: 'actions',
      label: '',
      render: (l) =>
        l.state === 'revoked' ? null : (
          <Button variant="ghost" onPress={() => setRevoking(l)}>
            {text.revoke}
          </Button>
        ),
    },
  ];

  return (
    <section className="panel driver-links" aria-labelledby="driver-links">
      <h2 id="driver-links">{text.links}</h2>
      <p className="muted">{text.linksIntro}</p>
      <Form className="driver-links-form" onSubmit={(e) => void create(e)}>
        <TextField
          label={text.linkPin}
          value={pin}
          onChange={(value) => setPin(value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          isRequired
          validate={pinCheck}
        />
        <Select label={text.linkDays} options={DURATIONS} value={days} onChange={setDays} />
        <Button type="submit" isPending={pending}>
          {text.newLink}
        </Button>
      </Form>
      {created && (
        <div className="driver-link-created" role="status">
          <QrCode className="driver-link-qr" value={created} label={text.qr} />
          <div>
            <p>{text.linkCreated}</p>
            <p>
              <span className="muted">{text.linkAddress}: </span>
              <code>{created}</code>
            </p>
            <Button
              variant="secondary"
              onPress={() => void copyText(created, text.copied, text.copyFailed)}
            >
              {text.copy}
            </Button>
          </div>
        </div>
      )}
      {links.data && (
        <DataTable label={text.links} columns={columns} rows={links.data} empty={text.noLinks} />
      )}
      <ConfirmDialog
        title={text.revokeTitle}
        confirmLabel={text.revoke}
        isOpen={revoking !== null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
        danger
        pending={pending}
      >
        {text.revokeBody}
      </ConfirmDialog>
    </section>
  );
}
