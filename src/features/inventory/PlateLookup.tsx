/** 'Consultar placa': fills a vehicle's form from the plate lookup provider. */
import { useState } from 'react';
import { lookupPlate } from '../../api/commands';
import { requireOnline, toastError } from '../../hooks/feedback';
import { unmaskPlate } from '../../lib/unmask';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import '../../ui/form.css';
import '../../ui/text.css';

export interface PlateFill {
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
  async function run() {
    if (!requireOnline()) return;
    setPending(true);
    try {
      const [found] = await lookupPlate(unmaskPlate(plate));
      if (!found) return;
      const [brand = '', ...model] = (found.marca_modelo ?? '').split('/');
      onFound({
        brand: brand.trim(),
        model: model.join('/').trim(),
        year: found.ano_fabricacao_veiculo ? String(found.ano_fabricacao_veiculo) : '',
        modelYear: found.ano_modelo ? String(found.ano_modelo) : '',
        color: found.cor_veiculo ?? '',
        chassis: found.chassi_veiculo ?? '',
        renavam: found.renavam ?? '',
      });
      toast.success('Dados da placa preenchidos.');
    } catch (err) {
      await toastError('Erro ao consultar placa', err);
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
        {pending ? 'Consultando…' : 'Consultar placa'}
      </Button>
      <span className="muted">Preenche marca, modelo, anos, cor, chassi e RENAVAM pela placa.</span>
    </div>
  );
}
