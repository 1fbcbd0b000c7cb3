/** Labelled single choice from a short list (react-aria Select: a button and a listbox). */
import {
  Select as AriaSelect,
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
  Text,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons';

export interface SelectOption {
  label: string;
  value: string;
}

export function Select({
  label,
  options,
  value,
  onChange,
  description,
  errorMessage,
  isRequired,
  isDisabled,
  placeholder = 'Selecione',
  className = 'field',
}: {
  label: string;
  options: SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  description?: string | undefined;
  errorMessage?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  placeholder?: string;
  className?: string;
}) {
  return (
    <AriaSelect
      className={className}
      selectedKey={value}
      onSelectionChange={(key) => key !== null && onChange(String(key))}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isInvalid={Boolean(errorMessage)}
      placeholder={placeholder}
    >
      <Label>{label}</Label>
      <Button className="select-button">
        <SelectValue className="select-value" />
        <ChevronDownIcon className="select-chevron" />
      </Button>
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox className="listbox" items={options.map((o) => ({ ...o, id: o.value }))}>
          {(option) => (
            <ListBoxItem id={option.value} className="listbox-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
