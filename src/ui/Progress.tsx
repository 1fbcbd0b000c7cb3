import { Label, ProgressBar } from 'react-aria-components';
import './Progress.css';

/** A progress bar: determinate with a value, indeterminate (the server still working) without. */
export function Progress({
  label,
  value,
  valueText,
}: {
  label: string;
  /** 0–100; undefined while the total is unknown. */
  value?: number | undefined;
  valueText?: string | undefined;
}) {
  return (
    <ProgressBar
      className="progress"
      {...(value === undefined ? { isIndeterminate: true } : { value })}
      {...(valueText ? { valueLabel: valueText } : {})}
    >
      {({ percentage, valueText: text }) => (
        <>
          <div className="progress-head">
            <Label>{label}</Label>
            <span className="progress-value">{text}</span>
          </div>
          <div className="progress-track">
            <div
              className={`progress-fill${value === undefined ? ' progress-indeterminate' : ''}`}
              style={value === undefined ? undefined : { width: `${percentage ?? 0}%` }}
            />
          </div>
        </>
      )}
    </ProgressBar>
  );
}
