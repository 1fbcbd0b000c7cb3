/**
 * pt-BR text of the audit screen ('Auditoria') and of its spreadsheet: apart from pt-BR.ts,
 * so that it loads with that page and not before the sign-in page (its JavaScript budget).
 */
import { AUDIT_WORDS } from '../contract';

export { auditChangeLines, auditValue, auditWhat } from '../contract';

export const auditText = {
  ...AUDIT_WORDS,
  title: 'Auditoria',
  intro: 'Quem alterou o quê, quais comandos foram enviados e quem entrou no sistema.',
  from: 'De',
  to: 'Até',
  user: 'Usuário',
  company: 'Empresa',
  kind: 'Tipo de evento',
  entity: 'Tipo de registro',
  entityId: 'Identificador do registro',
  any: 'Todos',
  anyCompany: 'Todas',
  filter: 'Filtrar',
  clear: 'Limpar filtros',
  export: 'Exportar XLSX',
  exporting: 'Gerando planilha…',
  exportError: 'Não foi possível gerar a planilha.',
  loadError: 'Erro ao carregar a auditoria',
  empty: 'Nenhum evento neste período.',
  page: (page: number, pages: number, total: number) =>
    `Página ${page} de ${pages} · ${total} ${total === 1 ? 'evento' : 'eventos'}`,
  previous: 'Anterior',
  next: 'Próxima',
};
