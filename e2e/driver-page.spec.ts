/**
 * A driver's own page on a phone: the PIN opens it, 'Início de jornada' is marked without a
 * connection (kept on the phone, said to be waiting), and when the connection returns the mark
 * reaches the manager's Jornada report once, at the time the driver pressed the button.
 */
import { expect, test } from '@playwright/test';
import { E2E_URL } from './env';
import { adminApi, DriverPage, JornadaReportPage, signInAsAdmin } from './pages';

// A mark made offline waits in the service worker until the connection is back.
test.use({ serviceWorkers: 'allow' });

/** A valid CPF that no other run used. */
function freshCpf(): string {
  const base = String(Date.now()).slice(-9);
  const digit = (b: string) => {
    let sum = 0;
    for (let i = 0; i < b.length; i++) sum += Number(b[i]) * (b.length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = digit(base);
  return `${base}${first}${digit(base + first)}`;
}

const clockIn = (ms: number) =>
  new Date(ms).toLocaleTimeString('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    hour: '2-digit',
    minute: '2-digit',
  });

test('a mark made offline on the driver’s phone reaches the manager once, at its own time', async ({
  browser,
  page,
  request,
}) => {
  const { headers, clientId } = await adminApi(request);
  const name = `Motorista Offline ${Date.now() % 100_000}`;
  const driver = await request.post(`${E2E_URL}/registros/driver`, {
    headers,
    data: { clientId, completName: name, cpf: freshCpf() },
  });
  expect(driver.status(), await driver.text()).toBe(201);
  const { id: driverId } = (await driver.json()) as { id: string };
  const link = await request.post(`${E2E_URL}/registros/driver-links`, {
    headers,
    data: { driverId, pin: '3141', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(link.status()).toBe(201);
  const { path } = (await link.json()) as { path: string };

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const driverPage = await phone.newPage();
  // The phone's clock is two hours behind the server's arrival of the mark: the report must
  // say the time the driver pressed the button, not the time it arrived.
  const pressed = Math.floor((Date.now() - 2 * 3_600_000) / 60_000) * 60_000 + 2_000;
  await driverPage.clock.install({ time: pressed });
  const own = new DriverPage(driverPage);
  await own.open(`${E2E_URL}${path}`);
  await own.enterPin('3141');
  await expect(own.heading(name)).toBeVisible();
  await expect(driverPage.getByText('Fora da jornada')).toBeVisible();

  await phone.setOffline(true);
  await expect(own.offline()).toBeVisible();
  await own.mark('Início de jornada');
  await expect(driverPage.getByText('1 envio aguardando a conexão')).toBeVisible();
  // Where the day stands follows the mark at once, without the server.
  await expect(driverPage.getByText('Em jornada')).toBeVisible();
  await expect(own.markButton('Início de refeição')).toBeVisible();

  await phone.setOffline(false);
  await expect(driverPage.getByText('1 envio aguardando a conexão')).toBeHidden({
    timeout: 20_000,
  });

  const jornada = new JornadaReportPage(page);
  await signInAsAdmin(page, jornada.path);
  await jornada.chooseDriver(name);
  const marks = jornada.marks();
  await expect(marks).toHaveCount(1);
  await expect(marks.getByRole('listitem')).toHaveCount(1);
  await expect(marks.getByRole('listitem')).toHaveText(
    `Início de jornada ${clockIn(pressed)} pelo motorista`,
  );
  await phone.close();
});
