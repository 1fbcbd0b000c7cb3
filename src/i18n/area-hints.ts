/**
 * pt-BR text of the section pages only (src/features/areas/AreaPage.tsx): apart from pt-BR.ts,
 * so that it loads with that page and not before the sign-in page (its JavaScript budget).
 */
/** What each area is for, under its name on a section page (Gestão, Gestão de Frotas). */
export const AREA_HINTS: Record<string, string> = {
  '/fleet-management/geofences': 'Áreas no mapa que avisam quando um veículo entra ou sai.',
  '/fleet-management/alerts': 'Quando avisar: velocidade, ignição, cercas, sem posição.',
  '/fleet-management/alerts/alerts-history': 'Os alertas gerados, para acompanhar e reconhecer.',
  '/fleet-management/maintenance': 'O que cada veículo tem vencendo ou vencido: km, horas e dias.',
  '/fleet-management/maintenance-plans':
    'Revisões a cada tantos km, horas de motor ou dias, por veículo ou frota.',
  '/fleet-management/service-records': 'Os serviços feitos, que reiniciam os planos.',
  '/fleet-management/driver-reports':
    'Problemas nos veículos relatados pelos motoristas, com foto, na página deles.',
  '/fleet-management/refuels':
    'Litros, preço, hodômetro e posto de cada abastecimento; consumo em km/L e custo por km.',
  '/fleet-management/expenses': 'Pedágios, multas, lavagens e outros gastos de cada veículo.',
  '/fleet-management/documents': 'CRLV, IPVA, seguro, CNH, exames e cursos: o que vence e quando.',
  '/management/vehicles': 'Placas, modelos e o rastreador de cada veículo.',
  '/management/trackers':
    'Os equipamentos instalados: identificador, protocolo, senha e o que disseram por último.',
  '/management/simcards': 'As linhas das operadoras usadas nos rastreadores.',
  '/management/drivers': 'Motoristas, com CNH e cartão de identificação.',
  '/management/fleets': 'Grupos de veículos para o mapa, os alertas e os relatórios.',
  '/management/tracker-types': 'Modelos de rastreador e os comandos que aceitam.',
  '/management/unknown-devices':
    'Identificadores que tentaram se conectar sem um rastreador cadastrado.',
  '/management/temporary-links': 'A localização de veículos compartilhada por um tempo.',
  '/management/customers': 'Os clientes atendidos e suas filiais.',
  '/management/users': 'Quem acessa o Rastro e com qual nível de acesso.',
  '/management/audit': 'Quem alterou o quê, enviou comandos ou entrou, quando e de onde.',
};
