/**
 * Alerts already shown as a toast on this page: the live stream and a foreground push may
 * bring the same alert, and it is shown once. Remembered for ten minutes.
 */
const KEEP_MS = 10 * 60_000;
const shown = new Map<string, number>();

/** True the first time an alert id is seen (recently); false when it was already shown. */
export function firstShowing(alertId: string, now = Date.now()): boolean {
  for (const [id, at] of shown) if (now - at > KEEP_MS) shown.delete(id);
  if (shown.has(alertId)) return false;
  shown.set(alertId, now);
  return true;
}
