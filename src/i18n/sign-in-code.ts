/**
 * pt-BR text of the sign-in's second step (the code of two-step sign-in): apart from
 * pt-BR.ts, so that it loads with that step only, not before the sign-in page (its
 * JavaScript budget).
 */
export const signInCodeText = {
  codeTitle: 'Verificação em duas etapas',
  code: 'Código de verificação',
  codeHelp: 'Digite o código de 6 dígitos do seu aplicativo autenticador.',
  recoveryCode: 'Código de recuperação',
  recoveryHelp: 'Digite um dos códigos de recuperação que você guardou. Cada um vale uma vez.',
  useRecovery: 'Usar um código de recuperação',
  useCode: 'Usar o código do aplicativo',
  verify: 'Verificar',
  verifying: 'Verificando…',
  restart: 'Entrar com outra conta',
};
