/**
 * A company's working-day rules on the Jornada page: cargo or passengers (30 min of rest
 * within each 6 h or 4 h of driving) and the overtime a day may carry (2 h by law, 4 h by
 * collective agreement). Shown to those who run the company, who alone may change them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { jornadaSettings, saveJornadaSettings } from '../../api/jornada';
import { hasPermission } from '../../contract';
import { toastError } from '../../hooks/feedback';
import { useSession } from '../../hooks/useSession';
import { jornadaText as text } from '../../i18n/jornada';
import { Select } from '../../ui/Select';

export function JornadaSettings({ clientId }: { clientId: string | null }) {
  const session = useSession();
  const client = useQueryClient();
  const canChange = session ? hasPermission(session.user.role, 'delete_resources') : false;
  const query = useQuery({
    queryKey: ['jornada-settings', clientId],
    queryFn: () => jornadaSettings(clientId ?? ''),
    enabled: Boolean(clientId) && canChange,
  });
  const save = useMutation({
    mutationFn: saveJornadaSettings,
    onSuccess: () => client.invalidateQueries({ queryKey: ['jornada'] }),
    onSettled: () => client.invalidateQueries({ queryKey: ['jornada-settings', clientId] }),
    onError: (error) => void toastError(text.settingsError, error),
  });
  const settings = query.data;
  if (!canChange || !clientId || !settings) return null;
  return (
    <fieldset className="jornada-settings">
      <legend>{text.settings}</legend>
      <Select
        label={text.regimeLabel}
        value={settings.regime}
        isDisabled={save.isPending}
        onChange={(regime) =>
          save.mutate({ clientId, regime: regime === 'passageiros' ? 'passageiros' : 'cargo' })
        }
        options={[
          { value: 'cargo', label: text.regime.cargo },
          { value: 'passageiros', label: text.regime.passageiros },
        ]}
      />
      <Select
        label={text.overtimeLabel}
        value={String(settings.overtimeLimitMinutes)}
        isDisabled={save.isPending}
        onChange={(minutes) => save.mutate({ clientId, overtimeLimitMinutes: Number(minutes) })}
        options={[
          { value: '120', label: text.overtimeOptions.law },
          { value: '240', label: text.overtimeOptions.agreement },
        ]}
      />
    </fieldset>
  );
}
