/**
 * The audit log ('Auditoria'): who changed what, sent which command, signed in or failed to,
 * when and from where. Read by managers (their company subtree) and administrators.
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema, PERIOD_ORDER, queryInt } from './common';
import * as o from './objects';
import { AUDIT_PERMISSION, hasPermission } from './permissions';
import type { Role } from './roles';

export const AUDIT_KINDS = [
  'create',
  'update',
  'delete',
  'command',
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'password_change',
  'email_change',
  'two_factor',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_ENTITIES = [
  'customer',
  'user',
  'vehicle',
  'tracker',
  'sim',
  'driver',
  'fleet',
  'geofence',
  'alert_rule',
  'report_rule',
  'share_link',
  'driver_link',
  'driver_report',
  'payments',
  'document',
  'maintenance_plan',
  'service_record',
  'attachment',
  'jornada_correction',
  'jornada_settings',
  'driving_settings',
  'driver_assignment',
  'refuel',
  'expense',
  'command',
  'session',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** Who reads the log: see AUDIT_PERMISSION. */
export function canReadAudit(role: Role): boolean {
  return hasPermission(role, AUDIT_PERMISSION);
}

export const AUDIT_PAGE_SIZE = 50;

export const AuditQuerySchema = v.pipe(
  o.strictObject({
    from: v.optional(IsoTimestampSchema),
    to: v.optional(IsoTimestampSchema),
    userId: v.optional(IdSchema),
    clientId: v.optional(IdSchema),
    kind: v.optional(v.picklist(AUDIT_KINDS, 'Tipo de evento inválido')),
    entity: v.optional(v.picklist(AUDIT_ENTITIES, 'Tipo de registro inválido')),
    entityId: v.optional(
      v.pipe(v.string(), v.trim(), v.maxLength(100, 'Identificador longo demais')),
    ),
    page: queryInt(1, 1, 100_000),
    pageSize: queryInt(AUDIT_PAGE_SIZE, 1, 200),
  }),
  v.forward(
    v.check((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), PERIOD_ORDER),
    ['to'],
  ),
);
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>;

export const AuditEventSchema = o.object({
  id: v.string(),
  at: v.string(),
  clientId: v.nullable(v.string()),
  clientName: v.nullable(v.string()),
  actorUserId: v.nullable(v.string()),
  actorEmail: v.nullable(v.string()),
  ip: v.nullable(v.string()),
  kind: v.picklist(AUDIT_KINDS),
  entity: v.string(),
  entityId: v.nullable(v.string()),
  summary: v.string(),
  /** { field: [before, after] }; secrets never appear ('***' when one changed). */
  changes: v.nullable(o.record(v.string(), v.tuple([v.unknown(), v.unknown()]))),
  /** A command's state: pending, sent, confirmed, failed, expired. */
  outcome: v.nullable(v.string()),
});
export type AuditEvent = v.InferOutput<typeof AuditEventSchema>;

export const AuditPageSchema = o.object({
  events: v.array(AuditEventSchema),
  page: v.number(),
  pageSize: v.number(),
  total: v.number(),
});
export type AuditPage = v.InferOutput<typeof AuditPageSchema>;

/**
 * The log's words that the screen and the spreadsheet share (src/i18n/audit.ts adds the
 * screen's own): here, as REPORT_TYPE_LABELS is, because the server writes them too.
 */
export const AUDIT_WORDS = {
  sheetTitle: 'Auditoria',
  sheetCompany: 'Empresa',
  allCompanies: 'Todas as empresas visíveis',
  unknownActor: 'Desconhecido',
  noCompany: 'Sem empresa',
  secret: 'oculto',
  emptyValue: 'vazio',
  emptyLog: 'Nenhum evento neste período.',
  columns: {
    at: 'Quando',
    actor: 'Quem',
    ip: 'Endereço',
    company: 'Empresa',
    what: 'O quê',
    record: 'Registro',
    changes: 'Antes → depois',
    outcome: 'Resultado',
  },
  kinds: {
    create: 'Criação',
    update: 'Alteração',
    delete: 'Remoção',
    command: 'Comando',
    sign_in: 'Entrada',
    sign_in_failed: 'Entrada recusada',
    sign_out: 'Saída',
    password_change: 'Troca de senha',
    email_change: 'Troca de e-mail',
    two_factor: 'Verificação em duas etapas',
  } satisfies Record<AuditKind, string>,
  entities: {
    customer: 'Cliente',
    user: 'Usuário',
    vehicle: 'Veículo',
    tracker: 'Rastreador',
    sim: 'Chip (SIM)',
    driver: 'Motorista',
    fleet: 'Frota',
    geofence: 'Cerca',
    alert_rule: 'Regra de alerta',
    report_rule: 'Relatório automático',
    share_link: 'Link de compartilhamento',
    driver_link: 'Link do motorista',
    driver_report: 'Problema relatado pelo motorista',
    payments: 'Pagamentos',
    document: 'Documento',
    maintenance_plan: 'Plano de manutenção',
    service_record: 'Serviço realizado',
    attachment: 'Anexo',
    jornada_correction: 'Correção de jornada',
    jornada_settings: 'Regras de jornada',
    driving_settings: 'Pesos da nota de direção',
    driver_assignment: 'Designação de motorista',
    refuel: 'Abastecimento',
    expense: 'Despesa',
    command: 'Comando',
    session: 'Sessão',
  } satisfies Record<AuditEntity, string>,
  commands: {
    block: 'Bloquear',
    unblock: 'Desbloquear',
    suspend: 'Suspender',
    enable: 'Habilitar',
    disable: 'Desabilitar',
  } as Record<string, string>,
  outcomes: {
    pending: 'Aguardando',
    sent: 'Enviado',
    confirmed: 'Confirmado',
    failed: 'Falhou',
    expired: 'Expirado',
  } as Record<string, string>,
};

/** What an event did, in a few words: 'Comando: Bloquear', 'Alteração de Veículo'. */
export function auditWhat(event: {
  kind: AuditKind;
  entity: string;
  changes: Record<string, [unknown, unknown]> | null;
}): string {
  const t = AUDIT_WORDS;
  if (event.kind === 'command') {
    const command = String(event.changes?.command?.[1] ?? '');
    return `${t.kinds.command}: ${t.commands[command] ?? command}`;
  }
  const entity = t.entities[event.entity as AuditEntity] ?? event.entity;
  if (event.kind === 'create' || event.kind === 'update' || event.kind === 'delete')
    return `${t.kinds[event.kind]} de ${entity.toLowerCase()}`;
  return t.kinds[event.kind] ?? event.kind;
}

/** Field names as a person reads them; a field not listed shows its own name. */
export const AUDIT_FIELDS: Record<string, string> = {
  name: 'Nome',
  contentType: 'Tipo de arquivo',
  size: 'Tamanho (bytes)',
  serviceRecordId: 'Serviço realizado',
  documentId: 'Documento',
  completName: 'Nome',
  plate: 'Placa',
  type: 'Tipo',
  brand: 'Marca',
  model: 'Modelo',
  year: 'Ano',
  modelYear: 'Ano do modelo',
  color: 'Cor',
  chassis: 'Chassi',
  renavam: 'Renavam',
  active: 'Ativo',
  enabled: 'Habilitado',
  clientId: 'Cliente',
  parentId: 'Empresa-mãe',
  identifier: 'Identificador',
  provider: 'Provedor',
  protocol: 'Protocolo',
  configMode: 'Modo de configuração',
  vehicleId: 'Veículo',
  vehicleIds: 'Veículos',
  driverIds: 'Motoristas',
  fleetIds: 'Frotas',
  simCardId: 'Chip',
  trackerId: 'Rastreador',
  trackerTypeId: 'Tipo de rastreador',
  devicePasswordHash: 'Senha do aparelho',
  commandPassword: 'Senha de comandos',
  passwordHash: 'Senha',
  token: 'Token do link',
  allowUnauthenticated: 'Aceitar sem senha',
  iccid: 'ICCID',
  phoneNumber: 'Número',
  carrier: 'Operadora',
  apn: 'APN',
  cpf: 'CPF',
  document: 'Documento',
  rfidCode: 'RFID',
  licenseNumber: 'CNH',
  licenseCategory: 'Categoria da CNH',
  licenseExpiry: 'Validade da CNH',
  phone: 'Telefone',
  email: 'E-mail',
  role: 'Nível de acesso',
  description: 'Descrição',
  geometry: 'Geometria',
  speedLimit: 'Limite de velocidade',
  integration: 'Integração',
  expiresAt: 'Expira em',
  revokedAt: 'Revogado em',
  reportType: 'Relatório',
  periodicity: 'Periodicidade',
  emailDelivery: 'E-mails',
  linkedVehicle: 'Veículo vinculado',
  vehicleAssociations: 'Veículos associados',
  vehicleAssociation: 'Veículo associado',
  fuelTankLiters: 'Tanque (L)',
  at: 'Data e hora',
  liters: 'Litros',
  priceMilli: 'Preço por litro (milésimos de R$)',
  totalCents: 'Total (centavos)',
  odometerKm: 'Hodômetro (km)',
  station: 'Posto',
  fullTank: 'Tanque cheio',
  notes: 'Observações',
  category: 'Categoria',
  amountCents: 'Valor (centavos)',
  date: 'Data',
};

/** A value of a change as a person reads it. */
export function auditValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return AUDIT_WORDS.emptyValue;
  if (value === '***') return AUDIT_WORDS.secret;
  if (value === true) return 'sim';
  if (value === false) return 'não';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The changes of an event as lines: 'Placa: ABC1D23 → ABC1D24'; a field that was empty
 * before (a creation) shows only its value: 'Placa: ABC1D23'.
 */
export function auditChangeLines(changes: Record<string, [unknown, unknown]> | null): string[] {
  if (!changes) return [];
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const empty = (value: unknown) => value === null || value === undefined || value === '';
  return (
    Object.entries(changes)
      // The command is said in 'O quê'; a new record's links to others are bare ids that the
      // record's own line names better (a change of them, a move, is kept).
      .filter(([field, [before, after]]) => {
        if (field === 'command') return false;
        return !(empty(before) && typeof after === 'string' && uuid.test(after));
      })
      .map(([field, [before, after]]) => {
        const label = AUDIT_FIELDS[field] ?? field;
        return before === null || before === undefined || before === ''
          ? `${label}: ${auditValue(after)}`
          : `${label}: ${auditValue(before)} → ${auditValue(after)}`;
      })
  );
}
