/**
 * The words of a push: one notification per alert, in pt-BR, e.g. title 'Saída de cerca —
 * RST1D01' and body 'RST1D01 saiu da cerca Garagem às 02:14'; an alert about a driver (a
 * driver's document expiring) names the driver instead of a plate. Its tag (vehicle or driver,
 * and type) makes a burst of the same alert replace the previous notification instead of
 * stacking.
 */
import { type AlertType, alertLabel, type PushAlert } from '../../src/contract';
import { TIME_ZONE } from '../../src/lib/schedule';
import { HISTORY_PATH } from '../alerts/mail';
import type { StoredAlert } from '../alerts/notifier';

const WHAT: Record<AlertType, (a: StoredAlert) => string> = {
  OVERSPEED: (a) => (a.speed === null ? 'excedeu a velocidade' : `a ${Math.round(a.speed)} km/h`),
  DIN1: () => 'acionou a entrada 1',
  IGNITION_ON: () => 'ligou a ignição',
  IGNITION_OFF: () => 'desligou a ignição',
  LOW_BATTERY: () => 'está com a bateria baixa',
  DEVICE_POWER_DISCONNECTED: () => 'teve a alimentação desconectada',
  LOCK_ACTIVATED: () => 'foi bloqueado',
  GEOFENCE_ENTER: (a) => `entrou na cerca ${a.geofenceName ?? ''}`.trim(),
  GEOFENCE_EXIT: (a) => `saiu da cerca ${a.geofenceName ?? ''}`.trim(),
  LOCATION_TIMEOUT: () => 'está sem enviar posição',
  HIGH_ENGINE_TEMP: () => 'está com a temperatura do motor alta',
  HIGH_RPM: () => 'está com a rotação do motor alta',
  LOW_FUEL: () => 'está com pouco combustível',
  FUEL_DROP: (a) =>
    `perdeu combustível parado com o motor desligado${
      typeof a.details.drop === 'number'
        ? ` (${a.details.drop.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} ${
            a.details.unit === 'l' ? 'L' : '%'
          })`
        : ''
    }`,
  DUPLICATE_DEVICE: () => 'tem dois aparelhos enviando com o mesmo identificador',
  PANIC: () => 'acionou o botão de pânico',
  JAMMING: () => 'detectou interferência no sinal (possível bloqueador)',
  TOWING: () => 'está sendo movido com a ignição desligada (reboque)',
  HARSH_BRAKING: () => 'freou bruscamente',
  HARSH_ACCELERATION: () => 'acelerou bruscamente',
  HARSH_CORNERING: () => 'fez uma curva brusca',
  MAINTENANCE_DUE: (a) =>
    `está com a manutenção ${a.details.stage === 'overdue' ? 'vencida' : 'vencendo'}${
      typeof a.details.planName === 'string' ? `: ${a.details.planName}` : ''
    }`,
  JORNADA_DRIVING_LIMIT: (a) =>
    `está com ${typeof a.details.driverName === 'string' ? a.details.driverName : 'o motorista'} há 5 h dirigindo sem pausa: pausa obrigatória em 30 min`,
  JORNADA_REST_SHORT: (a) =>
    `começou a jornada de ${typeof a.details.driverName === 'string' ? a.details.driverName : 'um motorista'} com descanso insuficiente${
      typeof a.details.restMinutes === 'number'
        ? ` (${Math.floor(a.details.restMinutes / 60)} h ${String(a.details.restMinutes % 60).padStart(2, '0')} de 11 h)`
        : ''
    }`,
  DOCUMENT_EXPIRING: (a) =>
    `tem documento ${typeof a.details.daysLeft === 'number' && a.details.daysLeft < 0 ? 'vencido' : 'vencendo'}${
      typeof a.details.label === 'string' ? `: ${a.details.label}` : ''
    }${typeof a.details.expiry === 'string' ? ` (${a.details.expiry.split('-').reverse().join('/')})` : ''}`,
};

export function pushMessage(alert: StoredAlert): PushAlert {
  const name =
    alert.vehicleId === null
      ? (alert.driverName ?? 'Motorista')
      : (alert.plate ?? alert.vehicleName ?? 'Veículo');
  const time = new Date(alert.fixTime ?? alert.createdAt).toLocaleTimeString('pt-BR', {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
  });
  return {
    rastro: 'alert',
    alertId: alert.id,
    type: alert.type,
    vehicleId: alert.vehicleId ?? '',
    ...(alert.driverId ? { driverId: alert.driverId } : {}),
    title: `${alertLabel(alert.type, alert.details)} — ${name}`,
    body: `${name} ${WHAT[alert.type](alert)} às ${time}`,
    tag: `${alert.vehicleId ?? `driver:${alert.driverId}`}:${alert.type}`,
    url: `${HISTORY_PATH}?alert=${encodeURIComponent(alert.id)}`,
  };
}
