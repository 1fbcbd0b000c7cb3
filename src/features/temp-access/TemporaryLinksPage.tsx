/** /management/temporary-links: share chosen vehicles through a link that expires. */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Form } from 'react-aria-components';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { createTemporaryLink, listTemporaryLinks, revokeTemporaryLink } from '../../api/sharing';
import {
  ALL_VEHICLES_BY_CLIENT,
  LINK_STATE_LABELS,
  TemporaryLinkCreateSchema,
  type TemporaryUser,
  vehicleOption,
} from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { t } from '../../i18n/pt-BR';
import { localDateAndClock } from '../../lib/local-time';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { useVehicles } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { CheckList } from '../../ui/CheckList';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DataTable } from '../../ui/DataTable';
import { copyText } from '../../ui/feedback/copy';
import { toast } from '../../ui/feedback/toasts';
import { fieldCheck } from '../../ui/field-checks';
import { Select } from '../../ui/Select';
import { ShortList } from '../../ui/ShortList';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import '../../ui/DataTable.css';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/FormActions.css';
import './TemporaryLinksPage.css';

const DURATIONS = [
  { label: t.screens.temporaryLinksPage.n1Hora, value: '1' },
  { label: t.screens.temporaryLinksPage.n4Horas, value: '4' },
  { label: t.screens.temporaryLinksPage.n24Horas, value: '24' },
  { label: t.screens.temporaryLinksPage.n3Dias, value: '72' },
  { label: t.screens.temporaryLinksPage.n7Dias, value: '168' },
];

/** The link in the clipboard, to paste in a message to whoever will follow the vehicles. */
const copyLink = (link: TemporaryUser) =>
  copyText(link.link, t.tempAccess.copied, t.tempAccess.copyFailed);

/** The API's rule for a link's name (required, at most 80 characters), beside the field. */
const linkNameCheck = fieldCheck(TemporaryLinkCreateSchema.entries.name);

export function TemporaryLinksPage() {
  const [clientId, setClientId] = useSelectedClient();
  const links = useQuery({ queryKey: keys.temporaryLinks, queryFn: listTemporaryLinks });
  useErrorToast(links.error, t.screens.temporaryLinksPage.erroAoBuscarLinks);
  const vehicleQuery = useVehicles(clientId, ALL_VEHICLES_BY_CLIENT);
  // A link shares one customer's vehicles (the server refuses a mix): those of the customer
  // chosen, not of the companies below it, which are chosen in the picker themselves.
  const vehicles = useMemo(
    () =>
      (vehicleQuery.data?.vehicles ?? [])
        .filter((vehicle) => vehicle.clientId === clientId)
        .map(vehicleOption),
    [vehicleQuery.data, clientId],
  );
  const invalidate = useInvalidate();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [hours, setHours] = useState('24');
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<TemporaryUser>();

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim() || chosen.length === 0) {
      setError(t.screens.temporaryLinksPage.deUmNomeAo);
      return;
    }
    if (!requireOnline()) return;
    setError(undefined);
    try {
      const link = await createTemporaryLink({
        name,
        vehicleIds: chosen,
        expiresInHours: Number(hours),
      });
      setCreated(link);
      toast.success(t.screens.temporaryLinksPage.linkCriado2);
      setName('');
      setChosen([]);
      await invalidate(keys.temporaryLinks);
    } catch (err) {
      setError(await toastError(t.screens.temporaryLinksPage.erroAoCriarLink, err));
    }
  }

  // Revoking ends every visitor's access at once: asked first.
  const [revoking, setRevoking] = useState<TemporaryUser | null>(null);
  const [revokePending, setRevokePending] = useState(false);
  async function revoke(link: TemporaryUser) {
    if (!requireOnline()) return;
    setRevokePending(true);
    try {
      toast.success(await revokeTemporaryLink(link.id));
      setRevoking(null);
      await invalidate(keys.temporaryLinks);
    } catch (err) {
      await toastError(t.screens.temporaryLinksPage.erroAoRevogarLink, err);
    } finally {
      setRevokePending(false);
    }
  }

  return (
    <section className="page page-links" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.screens.temporaryLinksPage.linksTemporarios}</h1>
      </div>
      {/* On a wide screen the form and the links side by side: the list is not under the fold. */}
      <div className="links-layout">
        <Form className="form panel links-form" onSubmit={create} aria-labelledby="new-link">
          <h2 id="new-link">{t.screens.temporaryLinksPage.compartilharLocalizacao}</h2>
          {error && <FormMessage kind="error">{error}</FormMessage>}
          <CustomerPicker
            value={clientId}
            onChange={(id) => {
              setClientId(id);
              // The vehicles checked were another customer's.
              setChosen([]);
            }}
          />
          <TextField
            label={t.screens.temporaryLinksPage.nomeDoLink}
            value={name}
            onChange={setName}
            isRequired
            validate={linkNameCheck}
            description={t.screens.temporaryLinksPage.paraQuemEO}
          />
          <Select
            label={t.screens.temporaryLinksPage.validade}
            value={hours}
            onChange={setHours}
            options={DURATIONS}
          />
          <CheckList
            label={t.screens.temporaryLinksPage.veiculos}
            noun={[t.screens.temporaryLinksPage.veiculo, t.screens.temporaryLinksPage.veiculos2]}
            options={vehicles}
            value={chosen}
            onChange={setChosen}
            emptyText={vehicleQuery.isLoading ? t.vehicles.loading : t.tempAccess.noVehicles}
          />
          <div className="form-actions">
            <Button type="submit">{t.screens.temporaryLinksPage.criarLink}</Button>
          </div>
          {created && (
            <FormMessage kind="success">
              {t.screens.temporaryLinksPage.linkCriado} <a href={created.link}>{created.link}</a>{' '}
              <Button variant="secondary" onPress={() => void copyLink(created)}>
                {t.tempAccess.copy}
              </Button>
            </FormMessage>
          )}
        </Form>
        <section className="links-list" aria-labelledby="links-title">
          <h2 id="links-title">{t.screens.temporaryLinksPage.linksCriados}</h2>
          <DataTable
            label={t.screens.temporaryLinksPage.linksCriados}
            columns={[
              {
                id: 'name',
                label: t.screens.temporaryLinksPage.nome,
                rowHeader: true,
                // An active link's name opens what its visitors see.
                render: (l) => (l.state === 'active' ? <a href={l.link}>{l.name}</a> : l.name),
              },
              {
                id: 'state',
                label: t.screens.temporaryLinksPage.status,
                render: (l) => (
                  <span className={`badge link-${l.state}`}>{LINK_STATE_LABELS[l.state]}</span>
                ),
              },
              {
                id: 'vehicles',
                label: t.screens.temporaryLinksPage.veiculos,
                // Which vehicles it shows, by plate (a server without plates: how many).
                render: (l) =>
                  l.plates ? <ShortList items={l.plates} shown={2} /> : String(l.vehicleIds.length),
              },
              {
                id: 'expires',
                label: t.screens.temporaryLinksPage.expiraEm,
                render: (l) => localDateAndClock(l.expiresAt),
              },
              {
                id: 'actions',
                label: t.screens.temporaryLinksPage.acoes,
                render: (l) =>
                  l.state === 'active' ? (
                    <span className="row-actions">
                      <Button
                        variant="ghost"
                        aria-label={`${t.tempAccess.copy}: ${l.name}`}
                        onPress={() => void copyLink(l)}
                      >
                        {t.tempAccess.copyShort}
                      </Button>
                      <Button
                        variant="ghost"
                        aria-label={`Revogar ${l.name}`}
                        onPress={() => setRevoking(l)}
                      >
                        {t.screens.temporaryLinksPage.revogar}
                      </Button>
                    </span>
                  ) : (
                    '—'
                  ),
              },
            ]}
            rows={links.data ?? []}
            empty={t.screens.temporaryLinksPage.nenhumLinkCriado}
            loading={links.isPending}
            unavailable={isUnavailable(links)}
          />
        </section>
      </div>
      <ConfirmDialog
        title={t.screens.temporaryLinksPage.revogarLink}
        confirmLabel={t.screens.temporaryLinksPage.revogar}
        isOpen={revoking !== null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
        danger
        pending={revokePending}
      >
        <p>
          <strong>{revoking?.name}</strong>
          {t.screens.temporaryLinksPage.quemTemOLink}
        </p>
      </ConfirmDialog>
    </section>
  );
}
