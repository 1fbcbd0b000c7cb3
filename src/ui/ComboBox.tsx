/**
 * Searchable choice from a longer list (react-aria ComboBox), e.g. the customer picker. The
 * search ignores accents ('logis' finds 'Logística') and punctuation inside words (a plate
 * typed 'abc-1d23'). While the options load the field is disabled, so nothing typed is lost
 * when they arrive. It looks like Select: the same box, the same chevron.
 */
import { useMemo } from 'react';
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
import { matchesSearch } from '../lib/text';
import { ChevronDownIcon } from './icons';
import type { SelectOption } from './Select';
import './Select.css';
import './TextField.css';
import './text.css';
import { t } from '../i18n/pt-BR';

export function ComboBox({
  label,
  options,
  value,
  onChange,
  description,
  errorMessage,
  isRequired,
  isLoading,
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
  isLoading?: boolean;
  placeholder?: string;
  className?: string;
}) {
  // A stable list: react-aria resets the typed text when its items change identity.
  const signature = options.map((o) => `${o.value}\u0000${o.label}`).join('\u0001');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for the options
  const items = useMemo(() => options.map((o) => ({ ...o, id: o.value })), [signature]);
  if (isLoading) {
    return (
      <div className={className}>
        <span className="react-aria-Label">{label}</span>
        <div className="input-with-action">
          <Input
            className="react-aria-Input"
            aria-label={label}
            disabled
            placeholder={placeholder}
          />
          <span className="input-action combo-button" aria-hidden="true">
            <ChevronDownIcon />
          </span>
        </div>
      </div>
    );
  }
  return (
    <AriaComboBox
      // A new set of options starts a fresh field showing the chosen option's label.
      key={`options-${items.length}`}
      className={className}
      defaultItems={items}
      defaultFilter={(text, typed) => matchesSearch(text, typed)}
      selectedKey={value}
      onSelectionChange={(key) => onChange(key === null ? null : String(key))}
      isRequired={isRequired}
      isDisabled={isLoading}
      isInvalid={Boolean(errorMessage)}
    >
      <ComboBoxParts
        label={label}
        placeholder={placeholder}
        description={description}
        errorMessage={errorMessage}
        empty={t.screens.comboBox.nadaEncontrado}
      />
    </AriaComboBox>
  );
}

/**
 * What every combo box shows inside react-aria's ComboBox: the label, the input with its
 * chevron button, the description and error, and the list of options in a popover. Shared by
 * ComboBox (options given) and the pickers that search on the server.
 */
export function ComboBoxParts({
  label,
  placeholder,
  description,
  errorMessage,
  empty,
}: {
  label: string;
  placeholder?: string | undefined;
  description?: string | undefined;
  errorMessage?: string | undefined;
  /** Said in the list when no option matches (or while the options load). */
  empty: string;
}) {
  return (
    <>
      <Label>{label}</Label>
      <div className="input-with-action">
        <Input placeholder={placeholder} />
        <Button
          className="input-action combo-button"
          aria-label={t.screens.comboBox.showOptions(label)}
        >
          <ChevronDownIcon />
        </Button>
      </div>
      {description && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => <p className="muted listbox-empty">{empty}</p>}
        >
          {(option: SelectOption & { id: string }) => (
            <ListBoxItem id={option.id} className="listbox-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </>
  );
}
