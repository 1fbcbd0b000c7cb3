/** Under a tracker's form: activate it, and enable or disable it through its integration. */
import { useState } from 'react';
import { activateTracker, setDeviceEnabled } from '../../api/commands';
import { COMMAND_LABELS, COMMAND_STATUS_LABELS, type Tracker } from '../../contract';
import { requireOnline, toastError } from '../../hooks/feedback';
import { useCan } from '../../hooks/useCan';
import { localDateTime } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/DataTable.css';
import '../../ui/page.css';
import '../../ui/text.css';
import { t } from '../../i18n/pt-BR';

export function TrackerActions({ tracker, onChange }: { tracker: Tracker; onChange: () => void }) {
  const canSend = useCan('send_commands');
  const canActivate = useCan('CrudProduct');
  const [pending, setPending] = useState<string>();

  async function run(key: string, work: () => Promise<string>) {
    if (!requireOnline()) return;
    setPending(key);
    try {
      toast.success(await work());
      onChange();
    } catch (err) {
      await toastError(t.screens.trackerActions.erroAoEnviarComando, err);
    } finally {
      setPending(undefined);
    }
  }

  return (
    <section className="panel" aria-labelledby="tracker-actions">
      <h2 id="tracker-actions">{t.screens.trackerActions.acoes}</h2>
      <p className="muted">
        {tracker.activatedAt
          ? `Ativado em ${localDateTime(tracker.activatedAt)}.`
          : t.screens.trackerActions.aindaNaoAtivado}{' '}
        {tracker.enabled ? 'Habilitado.' : 'Desabilitado.'}
      </p>
      <div className="row-actions">
        {canActivate && (
          <Button
            variant="secondary"
            isPending={pending === 'activate'}
            onPress={() => void run('activate', () => activateTracker(tracker.id))}
          >
            {t.screens.trackerActions.ativar}
          </Button>
        )}
        {canSend && (
          <Button
            variant="secondary"
            isPending={pending === 'toggle'}
            onPress={() =>
              void run('toggle', async () => {
                const sent = await setDeviceEnabled(tracker.id, !tracker.enabled);
                return `${COMMAND_LABELS[sent.kind]}: ${COMMAND_STATUS_LABELS[sent.status]}`;
              })
            }
          >
            {tracker.enabled ? 'Desabilitar' : 'Habilitar'}
          </Button>
        )}
      </div>
    </section>
  );
}
