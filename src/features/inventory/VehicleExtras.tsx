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
      {src ? <img src={src} alt="Foto do veículo" /> : <span className="muted">Carregando…</span>}
      {onRemove && (
        <Button variant="ghost" onPress={onRemove}>
          Remover foto
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
  useErrorToast(commands.error, 'Erro ao buscar comandos');
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
      await toastError('Erro ao enviar imagens', err);
    } finally {
      setUploading(false);
    }
  }

  return (
    <>
      <section className="panel" aria-labelledby="vehicle-images">
        <h2 id="vehicle-images">Fotos</h2>
        <div className="thumbs">
          {vehicle.images.length === 0 && <p className="muted">Nenhuma foto deste veículo.</p>}
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
                          (err: unknown) => toastError('Erro ao remover foto', err),
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
              {uploading ? 'Enviando…' : 'Enviar fotos'}
            </Button>
          </FileTrigger>
        )}
      </section>
      <section className="panel" id="comandos" aria-labelledby="vehicle-commands">
        <h2 id="vehicle-commands">Comandos</h2>
        {canBlock && (
          <div className="command-actions">
            <Button variant="danger" onPress={() => setConfirm('block')}>
              Bloquear
            </Button>
            <Button variant="secondary" onPress={() => setConfirm('unblock')}>
              Desbloquear
            </Button>
          </div>
        )}
        <DataTable
          label="Comandos enviados"
          columns={[
            {
              id: 'kind',
              label: 'Comando',
              rowHeader: true,
              render: (c) => COMMAND_LABELS[c.kind],
            },
            {
              id: 'status',
              label: 'Status',
              render: (c) => (
                <span className={`badge status-${c.status}`}>
                  {COMMAND_STATUS_LABELS[c.status]}
                </span>
              ),
            },
            { id: 'by', label: 'Enviado por', render: (c) => c.userName ?? '—' },
            {
              id: 'at',
              label: 'Quando',
              render: (c) => localDateTime(c.createdAt),
            },
            { id: 'detail', label: 'Detalhe', render: (c) => c.detail ?? '—' },
          ]}
          rows={commands.data ?? []}
          empty="Nenhum comando enviado."
          loading={commands.isPending}
          unavailable={isUnavailable(commands)}
        />
      </section>
      <ConfirmDialog
        title={confirm === 'block' ? 'Bloquear veículo?' : 'Desbloquear veículo?'}
        confirmLabel={confirm === 'block' ? 'Bloquear' : 'Desbloquear'}
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
            Atenção: na última posição ({localDateTime(moving.fixTime)}) o veículo estava em
            movimento, a {formatWithUnit(moving.speed, 'km/h')}.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
