/**
 * pt-BR text of the driver's working-day screens only ('Jornada do motorista'): apart from
 * pt-BR.ts, so that it loads with those pages and not before the sign-in page.
 */
import {
  type MarkKind,
  type MarkSource,
  PERIOD_KIND_LABELS,
  PERIOD_SOURCE_LABELS,
  VIOLATION_RULE_LABELS,
} from '../contract/jornada';

const hm = (minutes: number) => {
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return `${h} h ${String(m).padStart(2, '0')}`;
};

export const jornadaText = {
  title: 'Jornada do motorista',
  driver: 'Motorista',
  from: 'De',
  to: 'Até',
  chooseDriver: 'Escolha um motorista para ver a jornada.',
  loadError: 'Não foi possível carregar a jornada',
  offline: 'A jornada é calculada no servidor: conecte-se para vê-la.',
  noWork: 'Sem jornada',
  regime: { cargo: 'Transporte de carga', passageiros: 'Transporte de passageiros' },
  overtimeLimit: (minutes: number) => `Horas extras permitidas: ${hm(minutes)}`,
  kinds: PERIOD_KIND_LABELS,
  totals: {
    worked: 'Trabalhado',
    driving: 'Direção',
    overtime: 'Horas extras',
    waiting: 'Espera',
    night: 'Noturno',
  },
  rules: VIOLATION_RULE_LABELS,
  /** The marks a driver (or a manager for them) makes, as the page and the reports say them. */
  markKinds: {
    journey_start: 'Início de jornada',
    meal_start: 'Início de refeição',
    meal_end: 'Fim de refeição',
    rest_start: 'Início de descanso',
    rest_end: 'Fim de descanso',
    wait_start: 'Início de espera',
    wait_end: 'Fim de espera',
    journey_end: 'Fim de jornada',
  } satisfies Record<MarkKind, string>,
  marks: 'Marcações',
  markSources: { motorista: 'pelo motorista', gestor: 'pelo gestor' } satisfies Record<
    MarkSource,
    string
  >,
  /** Where a period comes from, after its kind and times. */
  periodSources: PERIOD_SOURCE_LABELS,
  drivingPeriods: (day: string) => `Direção em ${day}`,
  violations: 'Violações',
  noViolations: 'Nenhuma violação no período.',
  by: (minutes: number) => `excedido em ${hm(minutes)}`,
  hm,
  hour: (h: number) => `${h}h`,
  timeline: (day: string) => `Linha do tempo de ${day}`,
  files: {
    pdf: 'Baixar PDF',
    excel: 'Baixar XLSX',
    espelho: 'Espelho de ponto do mês (PDF)',
  },
  downloading: 'Gerando…',
  settings: 'Regras da empresa',
  settingsError: 'Não foi possível salvar as regras',
  regimeLabel: 'Tipo de transporte',
  overtimeLabel: 'Horas extras por dia',
  overtimeOptions: { law: '2 h (lei)', agreement: '4 h (acordo coletivo)' },
  downloadError: 'Não foi possível gerar o arquivo',
};
