/**
 * pt-BR text of turning two-step sign-in on and off ('Minha conta', the setup a company can
 * require): apart from pt-BR.ts, so that it loads with those
 * screens and not before the sign-in page (its JavaScript budget).
 */
export const twoFactorText = {
  title: 'Verificação em duas etapas',
  intro:
    'Além da senha, peça um código do aplicativo autenticador do celular (Google Authenticator, Microsoft Authenticator, Authy, 1Password…) ao entrar.',
  on: 'Ativada',
  off: 'Desativada',
  codesLeft: (n: number) =>
    n === 1 ? 'Resta 1 código de recuperação.' : `Restam ${n} códigos de recuperação.`,
  turnOn: 'Ativar',
  turnOff: 'Desativar',
  regenerate: 'Gerar novos códigos de recuperação',
  cancel: 'Cancelar',
  next: 'Continuar',
  passwordStep: 'Confirme a sua senha para começar.',
  currentPassword: 'Senha atual',
  scanStep: '1. Leia o QR code com o aplicativo autenticador.',
  qrAlt: 'QR code para o aplicativo autenticador',
  manualEntry: 'Não consegue ler? Digite esta chave no aplicativo:',
  confirmStep: '2. Digite o código de 6 dígitos que o aplicativo mostra.',
  code: 'Código de verificação',
  confirm: 'Confirmar e ativar',
  confirming: 'Confirmando…',
  recoveryTitle: 'Códigos de recuperação',
  recoveryIntro:
    'Guarde estes códigos em lugar seguro. Cada um permite entrar uma vez sem o celular. Eles não serão mostrados de novo.',
  copy: 'Copiar',
  copied: 'Códigos copiados.',
  download: 'Baixar',
  fileName: 'rastro-codigos-de-recuperacao.txt',
  saved: 'Guardei os códigos',
  done: 'Concluir',
  enabled: 'Verificação em duas etapas ativada.',
  disableIntro: 'Confirme com a senha e um código do aplicativo (ou um código de recuperação).',
  regenerateIntro:
    'Os códigos anteriores deixam de valer. Confirme com a senha e um código do aplicativo.',
  useRecovery: 'Usar um código de recuperação',
  useCode: 'Usar o código do aplicativo',
  recoveryCode: 'Código de recuperação',
  required: 'A sua empresa exige a verificação em duas etapas.',
  requiredTitle: 'Ative a verificação em duas etapas',
  requiredIntro:
    'A sua empresa exige que Gestores e Administradores entrem com a senha e um código do celular. Ative agora para continuar.',
  signOut: 'Sair',
  error: 'Erro na verificação em duas etapas',
};
