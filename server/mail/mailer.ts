/**
 * Outgoing e-mail. With SMTP_URL (smtp://user:pass@host:587 or smtps://…) messages go out
 * through nodemailer; without it the server cannot send e-mail, says so at start, and logs
 * each message (with its links) so that a demo or a developer can still follow the flow.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly configured: boolean;
  send(mail: Mail): Promise<void>;
}

export function createMailer(
  options: { smtpUrl?: string | undefined; from: string },
  log: Logger,
): Mailer {
  if (!options.smtpUrl) {
    return {
      configured: false,
      async send(mail) {
        log.warn('SMTP não configurado: e-mail não enviado, conteúdo registrado aqui', {
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
        });
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    configured: true,
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
      log.info('e-mail enviado', { to: mail.to, subject: mail.subject });
    },
  };
}
