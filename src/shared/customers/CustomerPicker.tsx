/** The customer picker of every screen that works on one customer's data. */
import { t } from '../../i18n/pt-BR';
import { ComboBox } from '../../ui/ComboBox';
import { useCustomerOptions } from './useCustomers';

export function CustomerPicker({
  value,
  onChange,
  label = t.customers.picker,
  errorMessage,
  isRequired,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
  label?: string;
  errorMessage?: string | undefined;
  isRequired?: boolean;
}) {
  const { options, loading, unavailable } = useCustomerOptions();
  return (
    <ComboBox
      label={label}
      options={options}
      value={value}
      onChange={onChange}
      errorMessage={errorMessage}
      isRequired={isRequired}
      isLoading={loading}
      placeholder={
        loading
          ? t.screens.customerPicker.carregandoClientes
          : unavailable
            ? t.customers.pickerOffline
            : t.customers.pickerPlaceholder
      }
    />
  );
}
