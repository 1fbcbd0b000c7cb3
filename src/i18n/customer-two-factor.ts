/**
 * The customer form's switch of two-step sign-in: its own module, so that the customer page
 * carries it without sharing a chunk with 'Minha conta' (src/i18n/two-factor.ts).
 */
export const customerTwoFactorText = {
  requireSwitch: 'Exigir verificação em duas etapas de Gestores e Administradores',
};
