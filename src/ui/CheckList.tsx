/**
 * A labelled list of checkboxes (vehicles of a fleet or of a link, drivers, geofences). A long
 * one gets, above its scrolling box, a filter, how many are checked in the words of SPEC §9
 * ('3 veículos selecionados', as MultiSelect says it) and 'Todos' / 'Limpar' for the items
 * shown: forty vehicles are not found by scrolling.
 */
import { useMemo, useState } from 'react';
import { Checkbox, CheckboxGroup, Input, Label, SearchField } from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import { quantityText } from '../lib/format';
import { matchesSearch, searchable } from '../lib/text';
import { Button } from './Button';
import type { SelectOption } from './Select';
import './TextField.css';
import './text.css';
import './CheckList.css';

/** From this many items on, a list gets its filter and buttons. */
export const LONG_CHECK_LIST = 8;

export function CheckList({
  label,
  options,
  value,
  onChange,
  noun = t.checkList.noun,
  emptyText = t.checkList.noOptions,
}: {
  label: string;
  options: SelectOption[];
  value: string[];
  onChange: (value: string[]) => void;
  /** Singular and plural of what is checked ('veículo', 'veículos'); 'item', 'itens' if not. */
  noun?: [string, string];
  emptyText?: string;
}) {
  const [query, setQuery] = useState('');
  const prepared = useMemo(
    () => options.map((option) => ({ option, text: searchable(option.label) })),
    [options],
  );
  const shown = query.trim()
    ? prepared.filter((p) => matchesSearch(p.text, query)).map((p) => p.option)
    : options;
  const chosen = new Set(value);
  // What is checked among the items offered (a value no longer offered is not counted).
  const checked = options.filter((o) => chosen.has(o.value)).length;
  const shownValues = shown.map((o) => o.value);
  const filtered = shown.length < options.length;
  const long = options.length >= LONG_CHECK_LIST;
  return (
    <CheckboxGroup className="check-list" value={value} onChange={onChange}>
      <div className="check-list-head">
        <Label>{label}</Label>
        {long && (
          <span className="muted check-list-count" aria-live="polite">
            {quantityText(checked, noun[0], noun[1])}
          </span>
        )}
      </div>
      {long && (
        <div className="check-list-tools">
          <SearchField
            className="field search-field check-list-filter"
            aria-label={t.checkList.filter(label)}
            value={query}
            onChange={setQuery}
          >
            {/* Enter in the filter is not the form's submit. */}
            <Input
              placeholder={t.checkList.placeholder}
              onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
            />
          </SearchField>
          {/* Never turned off under the person who pressed them (their focus would be lost):
              a press with nothing to do does nothing. */}
          <Button
            variant="ghost"
            aria-label={filtered ? t.checkList.checkShown : t.checkList.checkAll}
            onPress={() => {
              const missing = shownValues.filter((v) => !chosen.has(v));
              if (missing.length > 0) onChange([...value, ...missing]);
            }}
          >
            {t.checkList.all}
          </Button>
          <Button
            variant="ghost"
            aria-label={filtered ? t.checkList.uncheckShown : t.checkList.uncheckAll}
            onPress={() => {
              const hide = new Set(shownValues);
              // Without a filter, also what is checked but no longer offered (a vehicle gone).
              const kept = filtered ? value.filter((v) => !hide.has(v)) : [];
              if (kept.length !== value.length) onChange(kept);
            }}
          >
            {t.checkList.none}
          </Button>
        </div>
      )}
      <div className="checkbox-group">
        {options.length === 0 && <p className="muted">{emptyText}</p>}
        {options.length > 0 && shown.length === 0 && (
          <p className="muted">{t.checkList.noneFound}</p>
        )}
        {shown.map((option) => (
          <Checkbox key={option.value} value={option.value} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {option.label}
          </Checkbox>
        ))}
      </div>
    </CheckboxGroup>
  );
}
