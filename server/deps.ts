/** What every router receives: the database, configuration, logger and outside adapters. */
import type { CepLookup } from './adapters/cep';
import type { Integrations } from './adapters/integrations';
import type { PlateLookup } from './adapters/plates';
import type { AlertEngine } from './alerts/engine';
import type { AlertMail } from './alerts/mail';
import type { AlertBus } from './alerts/notifier';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Downlink } from './ingest/downlink';
import type { Pipeline } from './ingest/pipeline';
import type { Logger } from './log';
import type { Mailer } from './mail/mailer';
import type { AutoReports } from './reports/auto/scheduler';
import type { ReportFiles } from './reports/files/delivery';

export interface Deps {
  database: Database;
  config: Config;
  log: Logger;
  mailer: Mailer;
  cep: CepLookup;
  integrations: Integrations;
  plates: PlateLookup;
  pipeline: Pipeline;
  /** Commands to our own trackers over their open connections (Wialon IPS). */
  downlink: Downlink;
  /** The alert engine, the live bus of raised alerts and the grouped alert e-mails. */
  alerts: { engine: AlertEngine; bus: AlertBus; mail: AlertMail };
  /** Issue 14: report files e-mailed in the background (attached, or a link when large). */
  reportFiles: ReportFiles;
  /** Issue 14: the automated reports' scheduler (started by start.ts, ticked by tests). */
  autoReports: AutoReports;
  /** Access-token signing secret: JWT_SECRET, or one generated once and kept in the database. */
  secret: string;
}
