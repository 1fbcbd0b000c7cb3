/**
 * The public pages of signing in, one chunk: moving between them (the sign-in page's
 * "Esqueci a minha senha" link) shows the next page at once, never the previous one still
 * taking what the person types while the next loads.
 */
export { ConfirmEmailPage } from './ConfirmEmailPage';
export { CreatePasswordPage } from './CreatePasswordPage';
export { LoginPage } from './LoginPage';
export { RecoverPasswordPage } from './RecoverPasswordPage';
