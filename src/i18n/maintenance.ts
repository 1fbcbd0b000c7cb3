/**
 * pt-BR text of the maintenance screens only: apart from pt-BR.ts, so that it loads with those
 * pages and not before the sign-in page (its JavaScript budget).
 */
export const maintenanceText = {
  /** The nouns of the resource messages ('Erro ao salvar plano de manutenção'…). */
  planMessages: { one: 'plano de manutenção', many: 'planos de manutenção' },
  recordMessages: { one: 'serviço realizado', many: 'serviços realizados' },
  title: 'Manutenção',
  dueTitle: 'O que vence',
  plans: 'Planos de manutenção',
  newPlan: 'Novo plano de manutenção',
  records: 'Serviços realizados',
  newRecord: 'Novo serviço realizado',
  searchPlans: 'Buscar planos',
  searchRecords: 'Buscar por oficina ou observação',
  customer: 'Cliente',
  name: 'Nome',
  vehicle: 'Veículo',
  fleet: 'Frota',
  vehicleType: 'Tipo de veículo',
  target: 'Aplica-se a',
  targetHint:
    'Escolha um veículo, uma frota (todos os veículos dela) ou um tipo (todos os veículos desse tipo do cliente).',
  everyKm: 'A cada (km)',
  everyHours: 'A cada (horas de motor)',
  everyDays: 'A cada (dias)',
  warnKm: 'Avisar antes (km)',
  warnHours: 'Avisar antes (horas)',
  warnDays: 'Avisar antes (dias)',
  startDate: 'Contar a partir de',
  startKm: 'Km inicial (hodômetro rastreado)',
  startHours: 'Horas de motor iniciais',
  intervals: 'Intervalos',
  whicheverFirst: 'O que vier primeiro',
  hoursHint:
    'Horas de motor: a leitura "hours" do aparelho; sem ela, o tempo com a ignição ligada.',
  date: 'Data',
  odometer: 'Hodômetro (km)',
  odometerHint: 'Em branco: o km rastreado do veículo agora.',
  hours: 'Horas de motor',
  items: 'Itens feitos',
  itemsHint: 'Separe os itens com ponto e vírgula (;).',
  cost: 'Custo (R$)',
  workshop: 'Oficina',
  notes: 'Observações',
  coveredPlans: 'Planos que este serviço reinicia',
  planNoun: ['plano', 'planos'] as [string, string],
  status: 'Situação',
  statuses: { ok: 'Em dia', soon: 'Vencendo', overdue: 'Vencida' },
  filterAll: 'Todas',
  filterLabel: 'Mostrar',
  kmLeft: 'Km restantes',
  daysLeft: 'Dias restantes',
  hoursLeft: 'Horas restantes',
  lastService: 'Último serviço',
  never: 'Nenhum',
  noneDue: 'Nenhum plano de manutenção para mostrar.',
  loading: 'Carregando manutenção…',
  loadError: 'Erro ao carregar a manutenção',
  offline: 'Sem conexão: a lista de manutenção não pôde ser lida.',
  kmOf: (left: number, every: number) =>
    left < 0
      ? `${Math.abs(left).toLocaleString('pt-BR')} km além de ${every.toLocaleString('pt-BR')} km`
      : `${left.toLocaleString('pt-BR')} de ${every.toLocaleString('pt-BR')} km`,
  daysOf: (left: number, every: number) =>
    left < 0
      ? `vencida há ${Math.abs(left)} ${Math.abs(left) === 1 ? 'dia' : 'dias'}`
      : `${left} de ${every} ${every === 1 ? 'dia' : 'dias'}`,
  hoursOf: (left: number, every: number) =>
    left < 0
      ? `${Math.abs(left).toLocaleString('pt-BR')} h além de ${every} h`
      : `${left.toLocaleString('pt-BR')} de ${every} h`,
  noReading: 'sem leitura',
  dueOn: (day: string, past: boolean) => `${past ? 'venceu' : 'vence'} em ${day}`,
  sortBy: 'Ordenar por',
  sorts: {
    urgency: 'Urgência',
    plate: 'Placa',
    plan: 'Plano',
    days: 'Dias restantes',
    km: 'Km restantes',
  },
  every: 'Intervalo',
  everyText: (km: number | null, hours: number | null, days: number | null) =>
    [
      km ? `${km.toLocaleString('pt-BR')} km` : '',
      hours ? `${hours.toLocaleString('pt-BR')} h` : '',
      days ? `${days} dias` : '',
    ]
      .filter(Boolean)
      .join(' ou '),
  managePlans: 'Planos',
  manageRecords: 'Serviços',
};
