/**
 * 'Pesos da empresa' on the 'Comportamento do motorista' page: the points each event takes from
 * the score (and the idling time that makes one) of the company the report is for, each beside
 * its default. Those who run the company change them here; the others only read them. Saving
 * refetches every driving report (page and dashboard card): the server scores them anew.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  Dialog,
  DialogTrigger,
  FieldError,
  Form,
  Heading,
  Input,
  Label,
  Modal,
  ModalOverlay,
  Text,
  TextField,
} from 'react-aria-components';
import * as v from 'valibot';
import { drivingSettings, saveDrivingSettings } from '../../api/driving';
import { toClientError } from '../../api/errors';
import {
  DEFAULT_IDLE_MINUTES,
  DRIVING_EVENT_KINDS,
  DRIVING_WEIGHTS,
  type DrivingEventKind,
  type DrivingSettings,
  DrivingSettingsUpdateSchema,
} from '../../contract/driving';
import { useErrorToast } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { DRIVING_EVENT_LABELS, drivingText } from '../../i18n/driving';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage, Loading } from '../../ui/States';
import '../../ui/ConfirmDialog.css';
import './DrivingWeights.css';

const t = drivingText.weights;

type Field = DrivingEventKind | 'idleMinutes';
type Draft = Record<Field, string>;

const decimal = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

function draftOf(weights: Record<DrivingEventKind, number>, idleMinutes: number): Draft {
  const draft = Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, decimal(weights[k])]));
  return { ...(draft as Record<DrivingEventKind, string>), idleMinutes: String(idleMinutes) };
}

/** A pt-BR number typed in a field ('2,5'); empty is not zero. */
const numberOf = (text: string) =>
  text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));

const labelOf = (field: Field) =>
  field === 'idleMinutes'
    ? t.idleMinutes
    : field === 'idling'
      ? t.idlingLabel
      : DRIVING_EVENT_LABELS[field];

const defaultOf = (field: Field) =>
  field === 'idleMinutes' ? DEFAULT_IDLE_MINUTES : DRIVING_WEIGHTS[field];

const FIELDS: Field[] = [...DRIVING_EVENT_KINDS, 'idleMinutes'];

function WeightsForm({ settings, close }: { settings: DrivingSettings; close: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(settings.weights, settings.idleMinutes));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveDrivingSettings,
    onSuccess: async (saved) => {
      client.setQueryData(['driving-settings', saved.clientId], saved);
      await client.invalidateQueries({ queryKey: ['reports', 'driving'] });
      toast.success(t.saved);
      close();
    },
    onError: async (error) => setFailure((await toClientError(error)).message),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    const parsed = v.safeParse(DrivingSettingsUpdateSchema, {
      clientId: settings.clientId,
      weights: Object.fromEntries(DRIVING_EVENT_KINDS.map((k) => [k, numberOf(draft[k])])),
      idleMinutes: numberOf(draft.idleMinutes),
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.issues) {
        const key = issue.path?.at(-1)?.key;
        const field = FIELDS.find((f) => f === key);
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.output);
  };
  return (
    <Form className="driving-weights-form" onSubmit={submit} validationBehavior="aria">
      <div className="driving-weights-list">
        {FIELDS.map((field) => (
          <TextField
            key={field}
            className="driving-weights-row"
            value={draft[field]}
            onChange={(value) => setDraft((d) => ({ ...d, [field]: value }))}
            inputMode={field === 'idleMinutes' ? 'numeric' : 'decimal'}
            isInvalid={Boolean(errors[field])}
            isDisabled={save.isPending}
          >
            <Label className="driving-weights-label">{labelOf(field)}</Label>
            <Text slot="description" className="driving-weights-default">
              {t.byDefault(defaultOf(field))}
            </Text>
            <Input className="driving-weights-input" />
            <FieldError className="driving-weights-error">{errors[field]}</FieldError>
          </TextField>
        ))}
      </div>
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      <div className="dialog-actions driving-weights-actions">
        <Button
          variant="secondary"
          className="driving-weights-restore"
          isDisabled={save.isPending}
          onPress={() => {
            setDraft(draftOf(DRIVING_WEIGHTS, DEFAULT_IDLE_MINUTES));
            setErrors({});
          }}
        >
          {t.restore}
        </Button>
        <Button variant="ghost" onPress={close}>
          {t.cancel}
        </Button>
        <Button type="submit" isPending={save.isPending}>
          {save.isPending ? t.saving : t.save}
        </Button>
      </div>
    </Form>
  );
}

function WeightsTable({ settings, close }: { settings: DrivingSettings; close: () => void }) {
  return (
    <>
      <p className="muted driving-weights-readonly">{t.readOnly}</p>
      <table className="driving-weights-table">
        <thead>
          <tr>
            <th scope="col">{t.event}</th>
            <th scope="col">{t.weight}</th>
          </tr>
        </thead>
        <tbody>
          {FIELDS.map((field) => (
            <tr key={field}>
              <th scope="row">
                {labelOf(field)}
                <span className="driving-weights-default">{t.byDefault(defaultOf(field))}</span>
              </th>
              <td>
                {decimal(field === 'idleMinutes' ? settings.idleMinutes : settings.weights[field])}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <Button variant="ghost" onPress={close}>
          {t.close}
        </Button>
      </div>
    </>
  );
}

function WeightsDialog({ clientId, close }: { clientId: string; close: () => void }) {
  const canSave = useCan('delete_resources');
  const query = useQuery({
    queryKey: ['driving-settings', clientId],
    queryFn: () => drivingSettings(clientId),
  });
  useErrorToast(query.error, t.loadError);
  const settings = query.data;
  return (
    <Dialog className="dialog driving-weights">
      <Heading slot="title">{t.title}</Heading>
      <p className="driving-weights-intro">{t.intro}</p>
      {settings && (
        <p className="muted driving-weights-state">{settings.custom ? t.custom : t.defaults}</p>
      )}
      {!settings && <Loading label={t.loading} />}
      {settings &&
        (canSave ? (
          <WeightsForm settings={settings} close={close} />
        ) : (
          <WeightsTable settings={settings} close={close} />
        ))}
    </Dialog>
  );
}

/** The button that opens the company's weights, and the dialog. */
export function DrivingWeights({ clientId }: { clientId: string | null }) {
  const [open, setOpen] = useState(false);
  if (!clientId) return null;
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">{t.open}</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal driving-weights-modal">
          <WeightsDialog clientId={clientId} close={() => setOpen(false)} />
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
