/**
 * pt-BR text of the report 'Comportamento do motorista' and its dashboard card only: apart from
 * pt-BR.ts, so that it loads with those pages and not before the sign-in page. The words the
 * report files share with it (event labels) are in src/contract/driving.ts, which the server
 * may import.
 */
import { DRIVING_FILE_TEXT } from '../contract/driving';

export { DRIVING_EVENT_LABELS, DRIVING_EVENT_SHORT, drivingEventDetail } from '../contract/driving';

/** Points in pt-BR ('2,5'); a missing weight reads as a dash. */
const points = (n: number | undefined) =>
  n === undefined ? '—' : n.toLocaleString('pt-BR', { maximumFractionDigits: 2 });

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
  /** The rule of the score with the weights it was made with (the company's). */
  howScored: (minKm: number, weights: Record<string, number>, idleMinutes: number) =>
    `Nota = 100 − pontos por 100 km (mínimo ${minKm} km no mês). Pontos: gravíssima ${points(weights.speedingVerySerious)}, grave ${points(weights.speedingSerious)}, média ${points(weights.speedingMedium)}, frenagem brusca ${points(weights.harshBraking)}, aceleração brusca ${points(weights.harshAcceleration)}, curva brusca ${points(weights.harshCornering)}, ${points(weights.idling)} a cada 10 min de marcha lenta (acima de ${idleMinutes} min).`,
  weights: {
    open: 'Pesos da empresa',
    title: 'Pesos da nota de direção',
    intro:
      'Pontos que cada evento tira da nota a cada 100 km. Valem para o relatório, o painel e os relatórios automáticos desta empresa, nos dois meses da tendência.',
    readOnly: 'Só gestores e administradores da empresa mudam os pesos.',
    event: 'Evento',
    weight: 'Pontos',
    byDefault: (value: number) => `padrão ${points(value)}`,
    idlingLabel: 'Marcha lenta (a cada 10 min)',
    idleMinutes: 'Marcha lenta conta após (min)',
    custom: 'Pesos próprios desta empresa.',
    defaults: 'Pesos padrão do Rastro.',
    restore: 'Restaurar padrões',
    cancel: 'Cancelar',
    close: 'Fechar',
    save: 'Salvar pesos',
    saving: 'Salvando…',
    saved: 'Pesos salvos: as notas foram recalculadas',
    saveError: 'Erro ao salvar os pesos',
    loadError: 'Erro ao carregar os pesos',
    loading: 'Carregando os pesos…',
  },
  cardTitle: 'Comportamento do motorista',
  cardBest: 'Melhores notas',
  cardWorst: 'Piores notas',
  cardEmpty: 'Sem notas neste mês.',
  cardLink: 'Ver relatório',
  download: 'Baixar',
};
