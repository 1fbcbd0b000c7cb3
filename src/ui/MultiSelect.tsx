/**
 * Labelled choice of several items from a list (react-aria Select in multiple mode): the
 * button says how many are chosen in the words of SPEC §9 ('3 veículos selecionados').
 */
import {
  Select as AriaSelect,
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  SelectValue,
  Text,
} from 'react-aria-components';
import { quantityText } from '../lib/format';
import { ChevronDownIcon } from './icons';
import { emptyText, type SelectOption } from './Select';
import './CheckList.css';
import './Select.css';
import './TextField.css';

export function MultiSelect({
  label,
  options,
  value,
  onChange,
  noun,
  description,
  isDisabled,
  isLoading = false,
  isUnavailable = false,
}: {
  label: string;
  options: SelectOption[];
  value: string[];
  onChange: (value: string[]) => void;
  /** Singular and plural of what is chosen ('veículo', 'veículos'). */
  noun: [string, string];
  description?: string;
  isDisabled?: boolean;
  /** The options are still on their way (see Select). */
  isLoading?: boolean;
  /** The options could not be read (see Select). */
  isUnavailable?: boolean;
}) {
  const chosen = value.filter((id) => options.some((o) => o.value === id));
  const shown =
    options.length === 0
      ? emptyText(isLoading, isUnavailable)
      : chosen.length === 0
        ? 'Selecione'
        : chosen.length === 1
          ? (options.find((o) => o.value === chosen[0])?.label ?? '')
          : quantityText(chosen.length, noun[0], noun[1]);
  return (
    <AriaSelect
      className="field"
      selectionMode="multiple"
      value={chosen}
      onChange={(keys) => onChange(keys.map(String))}
      isDisabled={isDisabled || options.length === 0}
    >
      <Label>{label}</Label>
      <Button className="select-button">
        <SelectValue className="select-value">{() => shown}</SelectValue>
        <ChevronDownIcon className="select-chevron" />
      </Button>
      {description && <Text slot="description">{description}</Text>}
      <Popover className="popover">
        <ListBox className="listbox" items={options.map((o) => ({ ...o, id: o.value }))}>
          {(option) => (
            <ListBoxItem id={option.value} className="listbox-item" textValue={option.label}>
              {({ isSelected }) => (
                <>
                  <span
                    className="checkbox-box"
                    data-selected={isSelected || undefined}
                    aria-hidden="true"
                  />
                  {option.label}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
