/** Searchable choice from a longer list (react-aria ComboBox), e.g. the customer picker. */
import {
  ComboBox as AriaComboBox,
  Button,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import type { SelectOption } from './Select';

export function ComboBox({
  label,
  options,
  value,
  onChange,
  description,
  errorMessage,
  isRequired,
  placeholder,
  className = 'field',
}: {
  label: string;
  options: SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  description?: string | undefined;
  errorMessage?: string | undefined;
  isRequired?: boolean;
  placeholder?: string;
  className?: string;
}) {
  return (
    <AriaComboBox
      className={className}
      selectedKey={value}
      onSelectionChange={(key) => onChange(key === null ? null : String(key))}
      isRequired={isRequired}
      isInvalid={Boolean(errorMessage)}
      menuTrigger="focus"
      defaultItems={options.map((o) => ({ ...o, id: o.value }))}
    >
      <Label>{label}</Label>
      <div className="input-with-action">
        <Input placeholder={placeholder} />
        <Button className="input-action combo-button" aria-label={`Mostrar opções de ${label}`}>
          ▾
        </Button>
      </div>
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => <p className="muted listbox-empty">Nada encontrado</p>}
        >
          {(option: SelectOption & { id: string }) => (
            <ListBoxItem id={option.value} className="listbox-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
