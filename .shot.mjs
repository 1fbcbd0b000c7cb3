import { chromium } from '@playwright/test';

const [, , url, out, w = '1366', h = '800', wait = ''] = process.argv;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({
  viewport: { width: Number(w), height: Number(h) },
  locale: 'pt-BR',
  timezoneId: 'America/Sao_Paulo',
});
page.on('console', (m) => {
  if (m.type() === 'error') console.log('console:', m.text());
});
await page.goto('http://127.0.0.1:3598/login');
await page.getByLabel('E-mail').fill('admin@rastro.demo');
await page.getByLabel('Senha', { exact: true }).fill('rastro-demo');
await page.getByRole('button', { name: 'Entrar' }).click();
await page.waitForURL((u) => !u.pathname.startsWith('/login'));
const t0 = Date.now();
await page.goto('http://127.0.0.1:3598' + url);
if (wait) await page.locator(wait).first().waitFor({ timeout: 30000 });
console.log('ready in', Date.now() - t0, 'ms');
await page.waitForTimeout(1500);
await page.screenshot({ path: out, fullPage: process.env.FULL === '1' });
await browser.close();
