/**
 * The sign-in screen (/login) and the second step it asks for when an account has two-step
 * sign-in on: what a person types there and the error the screen says.
 */
import type { Page } from '@playwright/test';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async open() {
    await this.page.goto('/login');
  }

  email() {
    return this.page.getByRole('textbox', { name: 'E-mail' });
  }

  password() {
    return this.page.getByRole('textbox', { name: 'Senha' });
  }

  submit() {
    return this.page.getByRole('button', { name: 'Entrar' });
  }

  async signIn(email: string, password: string) {
    await this.email().fill(email);
    await this.password().fill(password);
    await this.submit().click();
  }

  /** The form's error, once it says something (the alert is there, empty, before). */
  error() {
    return this.page.getByRole('alert').filter({ hasText: /\S/ }).first();
  }

  forgotPasswordLink() {
    return this.page.getByRole('link', { name: 'Esqueci a minha senha' });
  }

  // The second step: the same route, another form once the password was right.

  twoStepHeading() {
    return this.page.getByRole('heading', { name: 'Verificação em duas etapas' });
  }

  verificationCode() {
    return this.page.getByRole('textbox', { name: 'Código de verificação' });
  }

  async verify(code: string) {
    await this.verificationCode().fill(code);
    await this.page.getByRole('button', { name: 'Verificar' }).click();
  }

  async verifyWithRecoveryCode(code: string) {
    await this.page.getByRole('button', { name: 'Usar um código de recuperação' }).click();
    await this.page.getByRole('textbox', { name: 'Código de recuperação' }).fill(code);
    await this.page.getByRole('button', { name: 'Verificar' }).click();
  }
}
