/**
 * The words of devices as installers and operators meet them: a tracker's protocol, its device
 * password, how to set the device up, what it last told us, and the identifiers that tried to
 * connect without a tracker.
 */
import type { DeviceProtocol } from '../contract';

export const devices = {
  tracker: {
    title: 'Rastreadores',
    newTitle: 'Novo rastreador',
    search: 'Buscar rastreadores (IMEI, identificador ou protocolo)',
    identifier: 'Identificador',
    identifierField: 'Identificador (IMEI ou do provedor)',
    provider: 'Provedor',
    configuration: 'Configuração',
    configMode: 'Modo de configuração',
    enabled: 'Habilitado',
    yes: 'Sim',
    no: 'Não',
    customer: 'Cliente',
    type: 'Tipo de rastreador',
    vehicle: 'Veículo',
    simCard: 'Chip (SIM)',
    none: 'Nenhum',
    status: 'Status',
  },
  protocol: 'Protocolo',
  protocols: {
    osmand: 'OsmAnd (aplicativo de celular)',
    wialon_ips: 'Wialon IPS',
    flespi: 'flespi (fluxo HTTP)',
    gt06: 'GT06 (Concox e compatíveis)',
    suntech: 'Suntech',
    teltonika: 'Teltonika (Codec 8/8E/12)',
    queclink: 'Queclink (@Track)',
  } satisfies Record<DeviceProtocol, string>,
  protocolShort: {
    osmand: 'OsmAnd',
    wialon_ips: 'Wialon IPS',
    flespi: 'flespi',
    gt06: 'GT06',
    suntech: 'Suntech',
    teltonika: 'Teltonika',
    queclink: 'Queclink',
  } satisfies Record<DeviceProtocol, string>,
  protocolHint: 'O aparelho só é ouvido neste protocolo. Em branco: o do tipo de rastreador.',
  protocolFromType: 'O do tipo de rastreador',
  password: 'Senha do aparelho',
  passwordHint:
    'O aparelho a envia em toda conexão. Guardamos só o seu hash: anote-a antes de salvar, ela não aparece de novo. Ao editar, em branco a senha atual é mantida.',
  generate: 'Gerar senha',
  removePassword: 'Senha do aparelho',
  removePasswordSwitch: 'Remover ao salvar',
  allowUnauthenticated: 'Aceitar sem senha',
  allowUnauthenticatedHint:
    'Só para aparelhos que não guardam senha. Ele entra sem provar quem é e, por segurança, não recebe comandos (bloquear, desbloquear, saídas).',
  noPasswordWarning:
    'Sem senha: qualquer aparelho que saiba o identificador fala por este rastreador, e nenhum comando é enviado a ele.',
  noPasswordRequired:
    'Sem senha e sem "Aceitar sem senha", o aparelho é recusado: defina uma senha.',
  status: {
    title: 'Comunicação',
    never: 'Ainda não se comunicou.',
    neverBadge: 'Nunca se comunicou',
    passwordMissing: 'Senha não definida',
    lastSeen: 'Última comunicação',
    address: 'Endereço',
    what: 'O que veio',
    kinds: {
      position: 'posição',
      telemetry: 'leitura sem GPS',
      login: 'login',
      heartbeat: 'sinal de vida',
      refused: 'recusada',
    } as Record<string, string>,
    refusals: {
      password: 'senha ausente ou errada',
      protocol: 'outro protocolo',
      future: 'horário no futuro',
      conflict: 'horário já ocupado por outra posição',
      malformed: 'mensagem malformada',
      jump: 'salto impossível',
      inactive: 'rastreador inativo',
    } as Record<string, string>,
    lastRefusal: 'Última recusa',
    conflicts: 'Conflitos de horário',
    authenticated: 'Senha provada',
    /** The makers' protocols carry no password: the device is its IMEI on its protocol. */
    byImei: 'não se aplica: reconhecido pelo IMEI',
    yes: 'sim',
    no: 'não',
    online: 'Online',
    silentSince: (when: string) => `Em silêncio desde ${when}`,
    noGpsSince: (when: string) => `Sem GPS desde ${when}`,
    lastFix: 'Última posição com GPS',
    withoutPassword: 'Sem senha',
    duplicate: 'Dois aparelhos com o mesmo identificador',
    duplicateDetail: (since: string, addresses: string) =>
      `Desde ${since}, de ${addresses}. Os comandos esperam até que um deles se desconecte.`,
    column: 'Última comunicação',
    state: 'Estado',
  },
  unknown: {
    title: 'Aparelhos desconhecidos',
    intro:
      'Identificadores que tentaram se conectar sem um rastreador cadastrado. Cadastre o rastreador para que o aparelho passe a ser ouvido.',
    search: 'Buscar por identificador ou endereço',
    identifier: 'Identificador',
    protocol: 'Protocolo',
    address: 'Último endereço',
    firstSeen: 'Primeira tentativa',
    lastSeen: 'Última tentativa',
    attempts: 'Tentativas',
    create: 'Cadastrar rastreador',
    forget: 'Esquecer',
    forgotten: 'Identificador removido da lista.',
    empty: 'Nenhum aparelho desconhecido tentou se conectar.',
    error: 'Erro ao buscar aparelhos desconhecidos',
    forgetError: 'Erro ao remover o identificador',
  },
  dashboard: {
    withoutPassword: (n: number) =>
      n === 1
        ? '1 rastreador aceita mensagens sem senha'
        : `${n} rastreadores aceitam mensagens sem senha`,
    duplicated: (n: number) =>
      n === 1
        ? '1 rastreador com dois aparelhos conectados'
        : `${n} rastreadores com dois aparelhos conectados`,
    see: 'Ver rastreadores',
  },
};
