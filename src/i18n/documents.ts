/**
 * pt-BR text of the documents screens only: apart from pt-BR.ts, so that it loads with those
 * pages and not before the sign-in page (its JavaScript budget).
 */
export const documentsText = {
  daysBeforeLabel: 'Avisar quantos dias antes do vencimento',
  daysBeforeHint:
    'Em dias do calendário de São Paulo; padrão 30. Sem veículos nem frotas escolhidos, a regra avisa também dos documentos dos motoristas (CNH, exame toxicológico, cursos); escolhidos, só dos documentos desses veículos.',
  title: 'Documentos',
  newDocument: 'Novo documento',
  document: 'Documento',
  customer: 'Cliente',
  owner: 'Documento de',
  owners: { vehicle: 'Veículo', driver: 'Motorista' },
  vehicle: 'Veículo',
  driver: 'Motorista',
  kind: 'Tipo',
  name: 'Nome (curso ou documento)',
  number: 'Número',
  expiry: 'Vencimento',
  notes: 'Observações',
  window: 'Vencendo em',
  windows: { 30: '30 dias', 60: '60 dias', 90: '90 dias', 3650: 'Todos' } as Record<number, string>,
  whose: 'De',
  daysLeft: 'Situação',
  left: (days: number) =>
    days < 0
      ? `vencido há ${-days} ${days === -1 ? 'dia' : 'dias'}`
      : days === 0
        ? 'vence hoje'
        : `vence em ${days} ${days === 1 ? 'dia' : 'dias'}`,
  none: 'Nada vence neste período.',
  loadError: 'Erro ao carregar os documentos',
  offline: 'Sem conexão: a lista de documentos não pôde ser lida.',
  cnhHint: 'A CNH é a do cadastro do motorista: altere-a lá.',
  search: 'Buscar por número, nome ou observação',
};
