/** An alert type as people read it: its pt-BR label on its SPEC §3 colour. */
import { ALERT_TYPE_LABELS, type AlertType, alertColor, alertColorName } from '../../contract';
import './AlertTypeChip.css';

export function AlertTypeChip({ type }: { type: AlertType }) {
  return (
    <span
      className={`alert-chip alert-chip-${alertColorName(type)}`}
      style={{ background: alertColor(type) }}
      data-type={type}
    >
      {ALERT_TYPE_LABELS[type]}
    </span>
  );
}
