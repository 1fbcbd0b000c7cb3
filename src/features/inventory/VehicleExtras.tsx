/**
 * Under a vehicle's form: its images (upload, view, remove) and its commands (block and
 * unblock with confirmation, and the history with each command's state).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { useLocation } from 'react-router';
import {
  deleteVehicleImage,
  lastLocationOf,
  sendVehicleCommand,
  uploadVehicleImages,
  vehicleCommands,
  vehicleImageUrl,
} from '../../api/commands';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { COMMAND_LABELS, COMMAND_STATUS_LABELS, type Vehicle } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { formatWithUnit } from '../../lib/format';
import { localDateTime } from '../../lib/local-time';
import { maskPlate } from '../../lib/masks';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DataTable } from '../../ui/DataTable';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../ui/text.css';
import '../../ui/States.css';
import './VehicleExtras.css';
import { t } from '../../i18n/pt-BR';

function Thumbnail({ url, onRemove }: { url: string; onRemove?: (() => void) | undefined }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let made: string | undefined;
    vehicleImageUrl(url).then(
      (blobUrl) => {
        made = blobUrl;
        setSrc(blobUrl);
      },
      () => setSrc(undefined),
    );
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return (
    <figure className="thumb">
      {src ? (
        <img src={src} alt={t.screens.vehicleExtras.fotoDoVeiculo} />
      ) : (
        <span className="muted">{t.screens.vehicleExtras.carregando}</span>
      )}
      {onRemove && (
        <Button variant="ghost" onPress={onRemove}>
          {t.screens.vehicleExtras.removerFoto}
        </Button>
      )}
    </figure>
  );
}

export function VehicleExtras({ vehicle, onChange }: { vehicle: Vehicle; onChange: () => void }) {
  const canWrite = useCan('create_resources');
  const canBlock = useCan('BlockVehicle');
  const invalidate = useInvalidate();
  const commands = useQuery({
    queryKey: keys.vehicleCommands(vehicle.id),
    queryFn: () => vehicleCommands(vehicle.id),
  });
  useErrorToast(commands.error, t.screens.vehicleExtras.erroAoBuscarComandos);
  const [confirm, setConfirm] = useState<'block' | 'unblock'>();
  // Read when the dialog opens, never from the cache: the warning is about the newest position.
  const last = useQuery({
    queryKey: keys.lastLocation(vehicle.id),
    queryFn: () => lastLocationOf(vehicle.id),
    enabled: confirm === 'block',
    staleTime: 0,
    gcTime: 0,
  });
  const moving = last.data && (last.data.speed ?? 0) > 3 ? last.data : undefined;
  // The map's popup links to '#comandos': bring the commands into view once they are drawn.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#comandos') document.getElementById('comandos')?.scrollIntoView();
  }, [hash]);
  const [pending, setPending] = useState(false);
  const [uploading, setUploading] = useState(false);

  async function send() {
    if (!confirm || !requireOnline()) return;
    setPending(true);
    try {
      const sent = await sendVehicleCommand(confirm, vehicle.id);
      toast.success(`${COMMAND_LABELS[sent.kind]}: ${COMMAND_STATUS_LABELS[sent.status]}`);
    } catch (err) {
      await toastError(
        `Erro ao ${confirm === 'block' ? 'bloquear' : 'desbloquear'} o veículo`,
        err,
      );
    } finally {
      setPending(false);
      setConfirm(undefined);
      void invalidate(keys.vehicleCommands(vehicle.id));
    }
  }

  async function upload(files: FileList | null) {
    if (!files?.length || !requireOnline()) return;
    setUploading(true);
    try {
      toast.success(await uploadVehicleImages(vehicle.id, [...files]));
      onChange();
    } catch (err) {
      await toastError(t.screens.vehicleExtras.erroAoEnviarImagens, err);
    } finally {
      setUploading(false);
    }
  }

  return (
    <>
      <section className="panel" aria-labelledby="vehicle-images">
        <h2 id="vehicle-images">{t.screens.vehicleExtras.fotos}</h2>
        <div className="thumbs">
          {vehicle.images.length === 0 && (
            <p className="muted">{t.screens.vehicleExtras.nenhumaFotoDesteVeiculo}</p>
          )}
          {vehicle.images.map((image) => (
            <Thumbnail
              key={image.id}
              url={image.url}
              onRemove={
                canWrite
                  ? () =>
                      void deleteVehicleImage(image.url)
                        .then(
                          (message) => toast.success(message),
                          (err: unknown) =>
                            toastError(t.screens.vehicleExtras.erroAoRemoverFoto, err),
                        )
                        .then(onChange)
                  : undefined
              }
            />
          ))}
        </div>
        {canWrite && (
          <FileTrigger
            acceptedFileTypes={['image/jpeg', 'image/png', 'image/webp']}
            allowsMultiple
            onSelect={(files) => void upload(files)}
          >
            <Button variant="secondary" isPending={uploading}>
              {uploading ? 'Enviando…' : t.screens.vehicleExtras.enviarFotos}
            </Button>
          </FileTrigger>
        )}
      </section>
      <section className="panel" id="comandos" aria-labelledby="vehicle-commands">
        <h2 id="vehicle-commands">{t.screens.vehicleExtras.comandos}</h2>
        {canBlock && (
          <div className="command-actions">
            <Button variant="danger" onPress={() => setConfirm('block')}>
              {t.screens.vehicleExtras.bloquear}
            </Button>
            <Button variant="secondary" onPress={() => setConfirm('unblock')}>
              {t.screens.vehicleExtras.desbloquear}
            </Button>
          </div>
        )}
        <DataTable
          label={t.screens.vehicleExtras.comandosEnviados}
          columns={[
            {
              id: 'kind',
              label: t.screens.vehicleExtras.comando,
              rowHeader: true,
              render: (c) => COMMAND_LABELS[c.kind],
            },
            {
              id: 'status',
              label: t.screens.vehicleExtras.status,
              render: (c) => (
                <span className={`badge status-${c.status}`}>
                  {COMMAND_STATUS_LABELS[c.status]}
                </span>
              ),
            },
            {
              id: 'by',
              label: t.screens.vehicleExtras.enviadoPor,
              render: (c) => c.userName ?? '—',
            },
            {
              id: 'at',
              label: t.screens.vehicleExtras.quando,
              render: (c) => localDateTime(c.createdAt),
            },
            {
              id: 'detail',
              label: t.screens.vehicleExtras.detalhe,
              render: (c) => c.detail ?? '—',
            },
          ]}
          rows={commands.data ?? []}
          empty={t.screens.vehicleExtras.nenhumComandoEnviado}
          loading={commands.isPending}
          unavailable={isUnavailable(commands)}
        />
      </section>
      <ConfirmDialog
        title={
          confirm === 'block'
            ? t.screens.vehicleExtras.bloquearVeiculo
            : t.screens.vehicleExtras.desbloquearVeiculo
        }
        confirmLabel={
          confirm === 'block'
            ? t.screens.vehicleExtras.bloquear
            : t.screens.vehicleExtras.desbloquear
        }
        isOpen={Boolean(confirm)}
        onCancel={() => setConfirm(undefined)}
        onConfirm={() => void send()}
        danger={confirm === 'block'}
        pending={pending}
      >
        <p>
          {confirm === 'block'
            ? `O comando de bloqueio será enviado ao rastreador de ${maskPlate(vehicle.plate)} (${vehicle.name}). Bloquear um veículo em movimento pode causar acidentes: confirme que ele está parado ou em local seguro.`
            : `O comando de desbloqueio será enviado ao rastreador de ${maskPlate(vehicle.plate)} (${vehicle.name}).`}
        </p>
        {confirm === 'block' && moving && (
          <p className="form-message form-message-error" role="alert">
            {t.screens.vehicleExtras.atencaoNaUltimaPosicao}
            {localDateTime(moving.fixTime)}
            {t.screens.vehicleExtras.oVeiculoEstavaEm} {formatWithUnit(moving.speed, 'km/h')}.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
