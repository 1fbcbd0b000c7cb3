/** pt-BR e-mails of the account flows. Plain text first; the HTML repeats it with a button. */
import type { Mail } from './mailer';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, paragraphs: string[], action: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  return `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#1b2430">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${body}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0b5cad;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:12px;color:#5b6675">Se o botão não funcionar, copie este endereço no navegador: ${escapeHtml(action.url)}</p>
</body></html>`;
}

export function firstAccessMail(
  to: { email: string; name: string },
  link: string,
  hours: number,
): Mail {
  const lines = [
    `Olá, ${to.name}!`,
    'Uma conta foi criada para você no Rastro, o sistema de rastreamento e gestão de frotas.',
    `Para começar, crie a sua senha pelo link abaixo. Ele vale por ${hours} horas e só pode ser usado uma vez.`,
  ];
  return {
    to: to.email,
    subject: 'Rastro: crie a sua senha de acesso',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout('Bem-vindo ao Rastro', lines, { label: 'Criar senha', url: link }),
  };
}

export function recoveryMail(
  to: { email: string; name: string },
  link: string,
  hours: number,
): Mail {
  const lines = [
    `Olá, ${to.name}!`,
    'Recebemos um pedido para redefinir a sua senha do Rastro.',
    `Use o link abaixo para criar uma nova senha. Ele vale por ${hours} horas e só pode ser usado uma vez.`,
    'Se você não fez esse pedido, ignore este e-mail: a sua senha continua a mesma.',
  ];
  return {
    to: to.email,
    subject: 'Rastro: redefinição de senha',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout('Redefinição de senha', lines, { label: 'Criar nova senha', url: link }),
  };
}
