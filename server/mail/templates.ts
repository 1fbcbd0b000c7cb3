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

function accountMail(
  to: { email: string; name: string },
  content: { subject: string; title: string; lines: string[]; action: string },
  link: string,
): Mail {
  const lines = [`Olá, ${to.name}!`, ...content.lines];
  return {
    to: to.email,
    subject: content.subject,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(content.title, lines, { label: content.action, url: link }),
  };
}

export function firstAccessMail(
  to: { email: string; name: string },
  link: string,
  hours: number,
): Mail {
  return accountMail(
    to,
    {
      subject: 'Rastro: crie a sua senha de acesso',
      title: 'Bem-vindo ao Rastro',
      action: 'Criar senha',
      lines: [
        'Uma conta foi criada para você no Rastro, o sistema de rastreamento e gestão de frotas.',
        `Para começar, crie a sua senha pelo link abaixo. Ele vale por ${hours} horas e só pode ser usado uma vez.`,
      ],
    },
    link,
  );
}

export function recoveryMail(
  to: { email: string; name: string },
  link: string,
  hours: number,
): Mail {
  return accountMail(
    to,
    {
      subject: 'Rastro: redefinição de senha',
      title: 'Redefinição de senha',
      action: 'Criar nova senha',
      lines: [
        'Recebemos um pedido para redefinir a sua senha do Rastro.',
        `Use o link abaixo para criar uma nova senha. Ele vale por ${hours} horas e só pode ser usado uma vez.`,
        'Se você não fez esse pedido, ignore este e-mail: a sua senha continua a mesma.',
      ],
    },
    link,
  );
}

export function emailConfirmMail(
  to: { email: string; name: string },
  link: string,
  hours: number,
): Mail {
  return accountMail(
    to,
    {
      subject: 'Rastro: confirme o seu novo e-mail',
      title: 'Confirme o seu novo e-mail',
      action: 'Confirmar e-mail',
      lines: [
        'Pediram para usar este endereço como o e-mail da sua conta no Rastro.',
        `Para confirmar, abra o link abaixo. Ele vale por ${hours} horas e só pode ser usado uma vez. Até lá, a conta continua com o e-mail anterior.`,
        'Se você não fez esse pedido, ignore este e-mail.',
      ],
    },
    link,
  );
}

/** To the address being left: the change is announced where the owner still reads. */
export function emailChangeNoticeMail(
  to: { email: string; name: string },
  newEmail: string,
  link: string,
): Mail {
  return accountMail(
    to,
    {
      subject: 'Rastro: pedido de troca do e-mail da sua conta',
      title: 'Troca de e-mail pedida',
      action: 'Redefinir a senha',
      lines: [
        `Pediram para trocar o e-mail da sua conta no Rastro para ${newEmail}. A troca só vale quando o link enviado a esse endereço for aberto.`,
        'Se não foi você, redefina a sua senha pelo link abaixo: isso cancela a troca e encerra as outras sessões.',
      ],
    },
    link,
  );
}
