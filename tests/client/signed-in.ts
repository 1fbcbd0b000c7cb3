/**
 * For tests of browser modules against the real server: starts a test server, points the API
 * client at it and signs in (Operador of Transportes Norte unless told). Call it after
 * `installStorage()`: the session module reads storage when first imported.
 */
import type { RunningServer } from '../../server/start';
import { startTestServer } from '../server/harness';

export async function serveAndSignIn(
  email = 'operador.norte@rastro.demo',
): Promise<{ server: RunningServer; clientId: string }> {
  const { login } = await import('../../src/api/auth');
  const client = await import('../../src/api/client');
  const { session } = await import('../../src/api/session');
  const server = await startTestServer();
  client.setApiBase(server.url);
  const auth = await login({ email, password: 'rastro-demo' });
  session.set(auth);
  return { server, clientId: auth.user.clientId };
}
