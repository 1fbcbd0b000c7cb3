/** For a Terceiro (VISITOR): the vehicles they see, added and removed one by one. */
import { useState } from 'react';
import { vehiclesApi } from '../../api/resources';
import { addVisitorVehicle, removeVisitorVehicle, visitorVehicles } from '../../api/users';
import { requireOnline, toastError } from '../../app/feedback';
import { toast } from '../../app/toasts';
import { useAsync } from '../../app/useAsync';
import { ALL_VEHICLES_BY_CLIENT, vehicleOption } from '../../contract';
import { maskPlate } from '../../lib/masks';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';

export function VisitorVehicles({ userId, clientId }: { userId: string; clientId: string }) {
  const linked = useAsync(() => visitorVehicles(userId), [userId]);
  const all = useAsync(
    () => vehiclesApi.list({ clientId, limit: ALL_VEHICLES_BY_CLIENT, sort: 'plate' }),
    [clientId],
  );
  const [chosen, setChosen] = useState<string | null>(null);

  async function change(work: () => Promise<{ message: string }>, title: string) {
    if (!requireOnline()) return;
    try {
      toast.success((await work()).message);
      linked.reload();
    } catch (err) {
      await toastError(title, err);
    }
  }

  const ids = new Set((linked.data ?? []).map((vehicle) => vehicle.id));
  const options = (all.data?.vehicles ?? [])
    .filter((vehicle) => !ids.has(vehicle.id))
    .map(vehicleOption);
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
        <Select label="Vincular veículo" value={chosen} onChange={setChosen} options={options} />
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
