/**
 * pt-BR text of the dashboard only: apart from pt-BR.ts, so that it loads with that page and not
 * before the sign-in page (its JavaScript budget).
 */
export const dashboardText = {
  offline: 'Os números aparecem quando a conexão voltar.',
  title: 'Dashboard',
  fetchError: 'Erro ao carregar o dashboard',
  customers: 'Clientes',
  users: 'Usuários',
  vehicles: 'Veículos',
  trackers: 'Rastreadores',
  activeInactive: (active: number, inactive: number) => `${active} ativos · ${inactive} inativos`,
  unacknowledged: 'Alertas não reconhecidos',
  maintenanceOverdue: 'Manutenções vencidas',
  documentsExpiring: 'Documentos vencendo em 30 dias',
  documentsExpired: (n: number) =>
    n === 0 ? 'Nenhum vencido' : n === 1 ? '1 já vencido' : `${n} já vencidos`,
  fuelThisMonth: 'Combustível neste mês',
  fuelLastMonth: (value: string) => `Mês passado: ${value}`,
  now: 'Veículos agora',
  never: 'Nunca comunicaram',
  activity: 'Rastreadores pela última comunicação',
  activityByClient: 'Por cliente',
  customer: 'Cliente',
  alertsPerDay: 'Alertas por dia, por tipo (30 dias)',
  kmPerDay: 'Km rodados por dia (30 dias)',
  noAlerts: 'Nenhum alerta nos últimos 30 dias.',
  updatedAt: (time: string) => `Atualizado às ${time}`,
  refreshEvery: 'Atualiza a cada 30\u00a0s',
  refresh: 'Atualizar agora',
  fullScreen: 'Tela cheia',
  exitFullScreen: 'Sair da tela cheia',
  seeList: (what: string) => `Ver ${what}`,
  total: 'Total',
};
