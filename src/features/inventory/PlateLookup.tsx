/** 'Consultar placa': fills a vehicle's form from the plate lookup provider. */
import { useState } from 'react';
import { lookupPlate } from '../../api/commands';
import { plateLookupResult } from '../../contract';
import { requireOnline, toastError } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { unmaskPlate } from '../../lib/unmask';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/page.css';
import '../../ui/text.css';

export interface PlateFill {
  plate: string;
  brand: string;
  model: string;
  year: string;
  modelYear: string;
  color: string;
  chassis: string;
  renavam: string;
}

export function PlateLookup({
  plate,
  onFound,
}: {
  plate: string;
  onFound: (fill: PlateFill) => void;
}) {
  const [pending, setPending] = useState(false);
  // The vehicle has no owner field: the registry's owner is shown beside the tool, for the
  // person to check that the plate is the vehicle in front of them.
  const [owner, setOwner] = useState<string>();
  async function run() {
    if (!requireOnline()) return;
    setPending(true);
    try {
      const [record] = await lookupPlate(unmaskPlate(plate));
      if (!record) return;
      const found = plateLookupResult(record);
      const [brand = '', ...model] = found.brandModel.split('/');
      onFound({
        plate: found.plate || unmaskPlate(plate),
        brand: brand.trim(),
        model: model.join('/').trim(),
        year: found.year,
        modelYear: found.modelYear,
        color: found.color,
        chassis: found.chassis,
        renavam: found.renavam,
      });
      setOwner(found.ownerName || undefined);
      toast.success(t.vehicles.lookupFilled);
    } catch (err) {
      await toastError(t.vehicles.lookupError, err);
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="form-tools">
      <Button
        variant="secondary"
        isPending={pending}
        isDisabled={unmaskPlate(plate).length !== 7}
        onPress={() => void run()}
      >
        {pending ? t.vehicles.lookingUp : t.vehicles.lookup}
      </Button>
      <span className="muted">{t.vehicles.lookupHint}</span>
      {owner && <span aria-live="polite">{t.vehicles.owner(owner)}</span>}
    </div>
  );
}
