/**
 * E-mail delivery of report files. A download asked with deliveryMethod=email is recorded
 * (report_requests, 'pending'), answered at once (202), then made here in the background
 * ('processing') and e-mailed: attached when it is at most REPORT_MAIL_MAX_BYTES, else as a
 * time-limited link (the file kept in REPORT_FILES_DIR, the link's token stored hashed). The
 * record ends 'done' or 'failed' with the reason, which the reports list shows. The automated
 * reports' scheduler sends through `send` too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Mail, Mailer } from '../../mail/mailer';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/log';
import { dropExpiredLinks, insertLink, setRequestStatus } from '../queries/report-files';
import type { FileFormat, ReportDocument } from './model';
import { type ReportFile, renderReport } from './render';
import { formatInstant, periodText } from './text';

export const MAIL_NOT_CONFIGURED =
  'O envio de e-mail não está configurado no servidor (SMTP_URL): o relatório não foi enviado.';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The pt-BR message of a report file: attached, or behind a link valid until `expiresAt`. */
export function reportMail(
  doc: ReportDocument,
  to: string[],
  file: ReportFile,
  link?: { url: string; expiresAt: Date },
): Mail {
  const period = periodText(doc.beginAt, doc.endAt);
  const lines = [
    `${doc.title} — ${doc.subjects.join(', ')}`,
    `Período: ${period} (horário de Brasília).`,
    link
      ? `O arquivo ${file.name} (${(file.size / 1_048_576).toFixed(1).replace('.', ',')} MB) é grande demais para anexar: baixe-o pelo link abaixo, válido até ${formatInstant(link.expiresAt)}.`
      : `O arquivo ${file.name} segue anexo.`,
  ];
  const text = `${lines.join('\n\n')}${link ? `\n\n${link.url}` : ''}\n\nRastro — rastreamento e gestão de frotas.\n`;
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#1b2430">
<h1 style="font-size:20px">${escapeHtml(doc.title)}</h1>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#0b5cad;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Baixar ${escapeHtml(file.name)}</a></p>` : ''}
<p style="font-size:12px;color:#5b6675">Rastro — rastreamento e gestão de frotas.</p>
</body></html>`;
  return {
    to: to.join(', '),
    subject: `Rastro: ${doc.title} — ${period}`,
    text,
    html,
    ...(link
      ? {}
      : { attachments: [{ filename: file.name, path: file.path, contentType: file.mime }] }),
  };
}

/** Why a send failed, in pt-BR, for the reports list and the rule's last run. */
export function failureText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (message === MAIL_NOT_CONFIGURED) return message;
  return `Falha ao enviar o e-mail: ${message}`.slice(0, 500);
}

export function createReportFiles(deps: {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'reportFiles'>;
  log: Logger;
}) {
  const { db, mailer, config, log } = deps;
  const running = new Set<Promise<void>>();

  /** E-mails a rendered file: attached, or a link above the size limit. */
  async function send(
    doc: ReportDocument,
    file: ReportFile,
    to: string[],
    clientId: string,
    now = new Date(),
  ): Promise<'attached' | 'link'> {
    if (!mailer.configured) throw new Error(MAIL_NOT_CONFIGURED);
    if (file.size <= config.reportFiles.maxMailBytes) {
      await mailer.send(reportMail(doc, to, file));
      return 'attached';
    }
    const token = randomBytes(32).toString('base64url');
    await mkdir(config.reportFiles.dir, { recursive: true });
    const kept = path.join(config.reportFiles.dir, path.basename(file.path));
    await copyFile(file.path, kept);
    const expiresAt = new Date(now.getTime() + config.reportFiles.linkTtlMs);
    await insertLink(db, {
      tokenHash: hashToken(token),
      clientId,
      path: kept,
      name: file.name,
      mime: file.mime,
      size: file.size,
      expiresAt,
    });
    const url = `${config.publicUrl}/registros/report-files/${token}`;
    await mailer.send(reportMail(doc, to, file, { url, expiresAt }));
    return 'link';
  }

  /** Makes and e-mails a recorded request's file; the record ends done or failed. */
  async function deliver(
    requestId: string | undefined,
    clientId: string,
    to: string[],
    format: FileFormat,
    build: () => Promise<ReportDocument>,
  ) {
    let file: ReportFile | undefined;
    try {
      if (requestId) await setRequestStatus(db, requestId, 'processing');
      const doc = await build();
      file = await renderReport(doc, format);
      await send(doc, file, to, clientId);
      if (requestId) await setRequestStatus(db, requestId, 'done');
    } catch (err) {
      log.warn('relatório por e-mail não enviado', { requestId, err });
      if (requestId)
        await setRequestStatus(db, requestId, 'failed', failureText(err)).catch(() => {});
    } finally {
      await file?.remove();
    }
  }

  return {
    send,
    /** Starts the delivery in the background (the call has answered 202). */
    emailInBackground(...args: Parameters<typeof deliver>) {
      const job = deliver(...args).finally(() => running.delete(job));
      running.add(job);
    },
    /** Resolves when every background delivery has ended (tests, shutdown). */
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    /** Deletes expired links and their files. */
    async sweep(now = new Date()) {
      for (const file of await dropExpiredLinks(db, now)) await rm(file, { force: true });
    },
  };
}

export type ReportFiles = ReturnType<typeof createReportFiles>;
