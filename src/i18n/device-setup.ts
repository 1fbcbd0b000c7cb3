/**
 * 'Como configurar o aparelho' (the tracker form's setup panel) and the command password's
 * field: loaded with the tracker form, not with the sign-in page (the words of every protocol's
 * setup are long, and the first page a phone loads must stay light).
 */
export const DEVICE_SETUP = {
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
};
