/** Switch and radio group, labelled and keyboard-operable. */
import type { ReactNode } from 'react';
import {
  RadioGroup as AriaRadioGroup,
  Switch as AriaSwitch,
  Label,
  Radio,
} from 'react-aria-components';
import './Choice.css';

export function Switch({
  children,
  isSelected,
  onChange,
  isDisabled,
}: {
  children: ReactNode;
  isSelected: boolean;
  onChange: (value: boolean) => void;
  isDisabled?: boolean;
}) {
  return (
    <AriaSwitch
      className="switch"
      isSelected={isSelected}
      onChange={onChange}
      isDisabled={isDisabled}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {children}
    </AriaSwitch>
  );
}

export function RadioGroup<V extends string>({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: { label: string; value: V }[];
}) {
  return (
    <AriaRadioGroup
      className="radio-group"
      value={value}
      onChange={(v) => onChange(v as V)}
      orientation="horizontal"
    >
      <Label>{label}</Label>
      <div className="radio-options">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} className="radio">
            {option.label}
          </Radio>
        ))}
      </div>
    </AriaRadioGroup>
  );
}
