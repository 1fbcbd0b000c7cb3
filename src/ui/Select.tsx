/** Labelled single choice from a short list (react-aria Select: a button and a listbox). */

import type { ReactNode } from 'react';
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
import { t } from '../i18n/pt-BR';
import { ChevronDownIcon } from './icons';
import './TextField.css';
import './Select.css';

export interface SelectOption {
  label: string;
  value: string;
}

/**
 * A picker's options and how they stand: still on their way, or unreadable (no signal and no
 * copy kept). A picker offered only its fixed choices ('Nenhum') meanwhile would look like a
 * customer with nothing to pick.
 */
export interface Choices {
  options: SelectOption[];
  loading: boolean;
  unavailable: boolean;
}

/**
 * What an empty select shows: still loading; the list could not be read (no signal and no copy
 * kept: an empty list then says nothing of what there is); or nothing to choose.
 */
export const emptyText = (loading: boolean, unavailable = false) =>
  loading
    ? t.list.loading
    : unavailable
      ? t.network.offline
      : t.screens.select.nenhumaOpcaoDisponivel;

export function Select({
  label,
  options,
  value,
  onChange,
  description,
  errorMessage,
  isRequired,
  isDisabled,
  placeholder = t.screens.select.selecione,
  isLoading = false,
  isUnavailable = false,
  className = 'field',
}: {
  label: string;
  options: SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  description?: ReactNode;
  errorMessage?: string | undefined;
  isRequired?: boolean;
  isDisabled?: boolean;
  placeholder?: string;
  /** The options are still on their way: the list cannot open yet, and says so. */
  isLoading?: boolean;
  /** The options could not be read (no signal, no copy kept): says so instead of 'none'. */
  isUnavailable?: boolean;
  className?: string;
}) {
  // react-aria does not open a select without options: disable it and say why instead of a
  // button that silently does nothing. Still loading or unreadable, the fixed choices alone
  // ('Nenhum') are not what there is to choose: it says why it cannot open yet.
  const empty = options.length === 0 || isLoading || isUnavailable;
  return (
    <AriaSelect
      className={className}
      selectedKey={value}
      onSelectionChange={(key) => key !== null && onChange(String(key))}
      isRequired={isRequired}
      isDisabled={isDisabled || empty}
      isInvalid={Boolean(errorMessage)}
      placeholder={empty ? emptyText(isLoading, isUnavailable) : placeholder}
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
