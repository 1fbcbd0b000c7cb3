/** For a Terceiro (VISITOR): the vehicles they see, added and removed one by one. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../../api/keys';
import { addVisitorVehicle, removeVisitorVehicle, visitorVehicles } from '../../api/users';
import { ALL_VEHICLES_BY_CLIENT } from '../../contract';
import { requireOnline, toastError, useErrorToast } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { maskPlate } from '../../lib/masks';
import { useVehicleOptions } from '../../shared/vehicles/useVehicleOptions';
import { Button } from '../../ui/Button';
import { ComboBox } from '../../ui/ComboBox';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/page.css';
import '../../ui/text.css';

export function VisitorVehicles({ userId, clientId }: { userId: string; clientId: string }) {
  const linked = useQuery({
    queryKey: keys.visitorVehicles(userId),
    queryFn: () => visitorVehicles(userId),
  });
  useErrorToast(linked.error, 'Erro ao buscar veículos');
  const all = useVehicleOptions(clientId, ALL_VEHICLES_BY_CLIENT);
  const invalidate = useInvalidate();
  const [chosen, setChosen] = useState<string | null>(null);

  async function change(work: () => Promise<{ message: string }>, title: string) {
    if (!requireOnline()) return;
    try {
      toast.success((await work()).message);
      await invalidate(keys.visitorVehicles(userId));
    } catch (err) {
      await toastError(title, err);
    }
  }

  const ids = new Set((linked.data ?? []).map((vehicle) => vehicle.id));
  const options = all.filter((option) => !ids.has(option.value));
  return (
    <section className="panel" aria-labelledby="visitor-vehicles">
      <h2 id="visitor-vehicles">Veículos que este usuário vê</h2>
      <ul className="shared-vehicles">
        {(linked.data ?? []).length === 0 && (
          <li className="muted">Nenhum veículo vinculado: este usuário não vê nenhum veículo.</li>
        )}
        {(linked.data ?? []).map((vehicle) => (
          <li key={vehicle.id}>
            <span>
              <strong>{maskPlate(vehicle.plate)}</strong> {vehicle.name}
            </span>
            <Button
              variant="ghost"
              aria-label={`Desvincular ${vehicle.plate}`}
              onPress={() =>
                void change(
                  () => removeVisitorVehicle(userId, vehicle.id),
                  'Erro ao desvincular veículo',
                )
              }
            >
              Desvincular
            </Button>
          </li>
        ))}
      </ul>
      <div className="form-tools">
        <ComboBox label="Vincular veículo" value={chosen} onChange={setChosen} options={options} />
        <Button
          variant="secondary"
          isDisabled={!chosen}
          onPress={() => {
            if (chosen)
              void change(() => addVisitorVehicle(userId, chosen), 'Erro ao vincular veículo').then(
                () => setChosen(null),
              );
          }}
        >
          Vincular
        </Button>
      </div>
    </section>
  );
}
