/**
 * pt-BR text of the report 'Comportamento do motorista' and its dashboard card only: apart from
 * pt-BR.ts, so that it loads with those pages and not before the sign-in page. The words the
 * report files share with it (event labels) are in src/contract/driving.ts, which the server
 * may import.
 */
import { DRIVING_FILE_TEXT } from '../contract/driving';

export { DRIVING_EVENT_LABELS, DRIVING_EVENT_SHORT, drivingEventDetail } from '../contract/driving';

export const drivingText = {
  ...DRIVING_FILE_TEXT,
  menuHint: 'Ranking dos motoristas pela nota de direção do mês e a tendência',
  company: 'Empresa',
  allCompanies: 'Todas as empresas',
  noPrevious: '—',
  up: (delta: number) => `▲ ${delta.toLocaleString('pt-BR')}`,
  down: (delta: number) => `▼ ${Math.abs(delta).toLocaleString('pt-BR')}`,
  same: '= 0',
  unassignedTitle: 'Eventos sem motorista identificado',
  unassignedHint: 'Por veículo: trechos sem etiqueta (RFID) de um motorista cadastrado.',
  /** 'novembro de 2026'. */
  monthName: (year: number, month: number) =>
    new Date(Date.UTC(year, month - 1, 15)).toLocaleDateString('pt-BR', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  loading: 'Calculando as notas do mês…',
  loadError: 'Erro ao carregar o comportamento dos motoristas',
  offline: 'Sem conexão: o comportamento dos motoristas não pôde ser lido.',
  showEvents: (name: string) => `Eventos de ${name}`,
  hideEvents: 'Ocultar',
  howScored: (minKm: number) =>
    `Nota = 100 − pontos por 100 km (mínimo ${minKm} km no mês). Pontos: gravíssima 10, grave 5, média 2, frenagem brusca 3, aceleração brusca 2, curva brusca 2, 1 a cada 10 min de marcha lenta.`,
  cardTitle: 'Comportamento do motorista',
  cardBest: 'Melhores notas',
  cardWorst: 'Piores notas',
  cardEmpty: 'Sem notas neste mês.',
  cardLink: 'Ver relatório',
  download: 'Baixar',
};
