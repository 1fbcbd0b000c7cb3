import { Input, Label, SearchField } from 'react-aria-components';
import './TextField.css';

/** A labelled search box (Escape clears it). */
export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <SearchField className="field search-field" value={value} onChange={onChange}>
      <Label>{label}</Label>
      <Input placeholder={placeholder} />
    </SearchField>
  );
}
