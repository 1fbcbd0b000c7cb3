/**
 * What every list that needs a customer (SPEC §5: users, vehicles and the other lists by
 * customer) shows while none is chosen, in the specification's words: 'Selecione um
 * cliente!' with 'Cliente não informado', as a toast when the list opens without one and in
 * the list's place.
 */
import { useEffect } from 'react';
import { t } from '../../i18n/pt-BR';
import { toast } from '../../ui/feedback/toasts';
import { EmptyState } from '../../ui/States';

export function CustomerRequired() {
  useEffect(() => {
    toast.error(t.customers.required, t.customers.requiredMessage);
  }, []);
  return (
    <EmptyState title={t.customers.required}>
      <p>{t.customers.requiredMessage}</p>
    </EmptyState>
  );
}
