/**
 * 'Minha conta' (/account): the account's data, the password form, this device's
 * notifications, two-step sign-in (turned on in steps: password, QR code and key, the first
 * code, the recovery codes kept) and 'Sair de todas as sessões'.
 */
import type { Page } from '@playwright/test';

export class AccountPage {
  constructor(private readonly page: Page) {}

  /** The page's address (`signInAs` can start a journey there). */
  readonly path = '/account';

  async open() {
    await this.page.goto(this.path);
  }

  details() {
    return this.page.getByLabel('Dados da conta');
  }

  /** A value of the account's data list (the e-mail, say). */
  detail(text: string) {
    return this.page.getByRole('definition').filter({ hasText: text });
  }

  passwordForm() {
    return this.page.getByRole('form', { name: 'Trocar senha' });
  }

  currentPassword() {
    return this.passwordForm().getByRole('textbox', { name: 'Senha atual' });
  }

  /** Fills what is given (a second try keeps the new password typed) and sends the form. */
  async changePassword(fields: { current: string; next?: string }) {
    const form = this.passwordForm();
    await this.currentPassword().fill(fields.current);
    if (fields.next !== undefined) {
      await form.getByRole('textbox', { name: 'Nova senha' }).fill(fields.next);
      await form.getByRole('textbox', { name: 'Confirme a senha' }).fill(fields.next);
    }
    await form.getByRole('button', { name: 'Trocar senha' }).click();
  }

  signOutEverywhereButton() {
    return this.page.getByRole('button', { name: 'Sair de todas as sessões' });
  }

  signOutEverywhereDialog() {
    return this.page.getByRole('alertdialog', { name: 'Sair de todas as sessões?' });
  }

  /** This device's notifications: whether they are on, and which alert types come. */
  notifications() {
    return this.page.getByRole('region', { name: 'Notificações de alertas' });
  }

  async enableNotifications() {
    await this.page.getByRole('button', { name: 'Ativar notificações' }).click();
  }

  /** An alert type's switch ('Ignição ligada') for this device's notifications. */
  alertType(name: string) {
    return this.page.getByRole('switch', { name });
  }

  twoStep() {
    return new TwoStepSection(this.page);
  }
}

/** The two-step sign-in section of 'Minha conta'. */
export class TwoStepSection {
  constructor(private readonly page: Page) {}

  region() {
    return this.page.getByRole('region', { name: 'Verificação em duas etapas' });
  }

  /** Its state as shown: 'Ativada', 'Desativada', or the count of recovery codes left. */
  says(text: string, exact = true) {
    return this.region().getByText(text, { exact });
  }

  async start() {
    await this.region().getByRole('button', { name: 'Ativar' }).click();
  }

  async confirmPassword(password: string) {
    await this.region().getByRole('textbox', { name: 'Senha atual' }).fill(password);
    await this.region().getByRole('button', { name: 'Continuar' }).click();
  }

  qrCode() {
    return this.region().getByRole('img', { name: 'QR code para o aplicativo autenticador' });
  }

  /** The key beside the QR code, without the spaces it is shown in groups with. */
  async secret() {
    const shown = await this.region().getByTestId('two-factor-secret').textContent();
    return (shown ?? '').replace(/\s/g, '');
  }

  code() {
    return this.region().getByRole('textbox', { name: 'Código de verificação' });
  }

  async confirmCode(code: string) {
    await this.code().fill(code);
    await this.region().getByRole('button', { name: 'Confirmar e ativar' }).click();
  }

  recoveryCodes() {
    return this.region().getByRole('region', { name: 'Códigos de recuperação' });
  }

  doneButton() {
    return this.recoveryCodes().getByRole('button', { name: 'Concluir' });
  }

  /** Ticks 'Guardei os códigos' (the only way 'Concluir' opens) and finishes. */
  async keepCodes() {
    await this.recoveryCodes().getByText('Guardei os códigos').click();
    await this.doneButton().click();
  }
}
