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
  setup: {
    title: 'Como configurar o aparelho',
    intro: 'Digite no aparelho ou no aplicativo:',
    server: 'Servidor',
    port: 'Porta',
    portTcp: 'Porta (TCP)',
    identifier: 'Identificador',
    password: 'Senha',
    passwordUnknown: 'a definida no cadastro (guardamos só o hash)',
    passwordNone: 'nenhuma',
    off: 'O servidor não está ouvindo este protocolo.',
    osmandUrl: 'Endereço do servidor no aplicativo',
    osmandHelp:
      'No Traccar Client: Endereço do servidor e Identificador do dispositivo. A senha vai no endereço; o aplicativo a envia em toda posição.',
    qr: 'QR code para o Traccar Client',
    qrHelp: 'No Traccar Client, toque em "Ler QR code" e aponte a câmera.',
    qrUnavailable: 'Gere ou digite a senha para mostrar o QR code.',
    wialonLogin: 'Login (TCP)',
    wialonHelp:
      'No rastreador Wialon IPS 2.0: servidor e porta TCP, identificador (IMEI) e senha. O rastreador acrescenta o CRC ao login.',
    wialonUdp: 'Por UDP não vai senha: use TCP, ou marque "Aceitar sem senha".',
    flespiHelp:
      'No flespi, crie um stream HTTP para o endereço abaixo com o cabeçalho Authorization: Bearer e o segredo do fluxo (FLESPI_STREAM_SECRET). O ident do dispositivo no flespi é o identificador.',
    flespiUrl: 'Endereço do fluxo',
    flespiOff: 'O fluxo do flespi não está configurado neste servidor (FLESPI_STREAM_SECRET).',
    portTcpUdp: 'Porta (TCP e UDP)',
    imei: 'IMEI',
    sms: 'Comando por SMS',
    noPassword:
      'Este protocolo não leva senha: o aparelho é reconhecido pelo IMEI, e só neste protocolo. Deixe o protocolo marcado no cadastro.',
    commandPassword: 'Senha de comandos do aparelho',
    commandPasswordHint:
      'A senha que o aparelho pede nos comandos (Queclink: a do AT+GT…; de fábrica, o nome do modelo, como gv300). Em branco: a de fábrica.',
    native: {
      gt06: 'Nos GT06 e compatíveis (Concox, JiMi e clones): envie o SMS abaixo ao chip do rastreador. Só TCP.',
      suntech:
        'Nos Suntech (ST300, ST310U, ST340, ST4300): pelo programa de configuração do fabricante ou pelo comando de rede, aponte o servidor e a porta abaixo, em TCP ou UDP. O identificador é o número de série (ID) do aparelho.',
      teltonika:
        'Nos Teltonika (FMB, FMC, FMM): no Teltonika Configurator, em GPRS, Servidor e Porta abaixo e protocolo TCP (ou UDP); ou pelo SMS abaixo (com dois espaços no início quando o aparelho não tem login de SMS). Codec 8 ou 8 Extended.',
      queclink:
        'Nos Queclink (GV55, GV300, GV350, GL300): pelo Queclink Manage Tool ou pelo comando AT+GTSRI abaixo, com a senha do aparelho (de fábrica, o nome do modelo). Modo TCP longo ou UDP.',
    } as Record<string, string>,
    copy: 'Copiar',
    copied: 'Copiado.',
    copyFailed: 'Não foi possível copiar: selecione o texto e copie à mão.',
    loading: 'Carregando as configurações de conexão…',
    failed: 'Não foi possível carregar as configurações de conexão.',
  },
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
