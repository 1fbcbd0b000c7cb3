/**
 * Outgoing e-mail. With SMTP_URL (smtp://user:pass@host:587 or smtps://…) messages go out
 * through nodemailer; without it the server cannot send e-mail and says so at start. Then,
 * in the demo only (`logContent`), each message is logged with its links so that a demo or
 * a developer can still follow the flow; outside the demo a set-password or recovery link
 * is a credential and never reaches a log: only who it was for and the subject are logged.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../platform/log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files attached from disk (streamed by nodemailer, never read whole). */
  attachments?: { filename: string; path: string; contentType: string }[];
}

export interface Mailer {
  readonly configured: boolean;
  send(mail: Mail): Promise<void>;
}

export function createMailer(
  options: { smtpUrl?: string | undefined; from: string; logContent?: boolean },
  log: Logger,
): Mailer {
  if (!options.smtpUrl) {
    return {
      configured: false,
      async send(mail) {
        if (options.logContent) {
          log.warn('SMTP não configurado: e-mail não enviado, conteúdo registrado aqui', {
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
          });
          return;
        }
        log.warn('SMTP não configurado: e-mail não enviado (conteúdo omitido: defina SMTP_URL)', {
          to: mail.to,
          subject: mail.subject,
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
