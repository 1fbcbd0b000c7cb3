/**
 * The public password screens: 'Recuperar senha' (asking for the e-mailed link, then the new
 * password on the link's page) and 'Criar senha de acesso' (a new user's first access). Both
 * links open the same form for the new password.
 */
import { expect, type Page } from '@playwright/test';

export class RecoverPasswordPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/recover-password');
  }

  heading() {
    return this.page.getByRole('heading', { name: 'Recuperar senha' });
  }

  /**
   * Types on this page's own form: the sign-in screen it is reached from has an 'E-mail' box
   * too, which a fill made the moment after the click would reach instead while the router is
   * still changing pages (and the request was then sent empty).
   */
  async askForLink(email: string) {
    await expect(this.heading()).toBeVisible();
    await this.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await this.page.getByRole('button', { name: 'Enviar link' }).click();
  }

  sent() {
    return this.page.getByRole('status');
  }
}

/** The new password, typed twice, on a link's page ('Salvar senha e entrar'). */
export class NewPasswordForm {
  constructor(private readonly page: Page) {}

  async save(password: string) {
    await this.page.getByRole('textbox', { name: 'Nova senha' }).fill(password);
    await this.page.getByRole('textbox', { name: 'Confirme a senha' }).fill(password);
    await this.page.getByRole('button', { name: 'Salvar senha e entrar' }).click();
  }

  /** The link was used or expired: said as an alert. */
  invalidLink() {
    return this.page.getByRole('alert').filter({ hasText: 'Link inválido ou expirado' });
  }
}

export class CreatePasswordPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/create-password');
  }

  heading() {
    return this.page.getByRole('heading', { name: 'Criar senha de acesso' });
  }
}
