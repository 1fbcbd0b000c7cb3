/**
 * The state a vehicle is drawn in, from its last location: moving, stopped with the ignition
 * on, off, or without signal for a while. Pure, so the map, the list and tests agree.
 */

export type VehicleState = 'moving' | 'idle' | 'off' | 'offline';

/** Above this speed (km/h) a vehicle is moving; GPS drift stays below it. */
export const MOVING_KMH = 3;
/** Without a fix for this long a vehicle is shown as without signal. */
export const NO_SIGNAL_MINUTES = 30;

export const STATE_LABELS: Record<VehicleState, string> = {
  moving: 'Em movimento',
  idle: 'Parado e ligado',
  off: 'Desligado',
  offline: 'Sem sinal',
};

/** Colours with enough contrast on the map and as text on white. */
export const STATE_COLORS: Record<VehicleState, string> = {
  moving: '#1b7f3b',
  idle: '#b26a00',
  off: '#b3261e',
  offline: '#5f6368',
};

export function vehicleState(
  item: { speed: number | null; ignition: boolean | null; fixTime: string },
  now = Date.now(),
): VehicleState {
  if (now - Date.parse(item.fixTime) > NO_SIGNAL_MINUTES * 60_000) return 'offline';
  if ((item.speed ?? 0) > MOVING_KMH) return 'moving';
  if (item.ignition === false) return 'off';
  // No ignition input: a stopped vehicle is taken as stopped with the engine on.
  return 'idle';
}

/** "agora", "há 40 s", "há 5 min", "há 3 h", "há 2 dias". */
export function timeSince(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 10) return 'agora';
  if (seconds < 60) return `há ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'há 1 dia' : `há ${days} dias`;
}

export function formatSpeed(kmh: number | null): string {
  return kmh === null ? '—' : `${Math.round(kmh)} km/h`;
}

export function ignitionLabel(ignition: boolean | null): string {
  return ignition === null ? 'Não informada' : ignition ? 'Ligada' : 'Desligada';
}
