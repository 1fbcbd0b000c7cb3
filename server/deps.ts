/** What every router receives: the database, configuration, logger and outside adapters. */
import type { CepLookup } from './adapters/cep';
import type { Integrations } from './adapters/integrations';
import type { PlateLookup } from './adapters/plates';
import type { AlertEngine } from './alerts/engine';
import type { AlertMail } from './alerts/mail';
import type { AlertBus } from './alerts/notifier';
import type { GuardedPipeline } from './guarded-pipeline';
import type { DeviceStatus } from './ingest/device-status';
import type { Downlink } from './ingest/downlink';
import type { Mailer } from './mail/mailer';
import type { PaymentsProvider } from './payments/asaas';
import type { Config } from './platform/config';
import type { Database } from './platform/db/client';
import type { Jobs } from './platform/jobs';
import type { Lifecycle } from './platform/lifecycle';
import type { Logger } from './platform/log';
import type { Metrics } from './platform/metrics';
import type { Push } from './push/notifier';
import type { LiveFeed } from './realtime/feed';
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
  /** The ingest pipeline, counting refused writes and drained on stop (guarded-pipeline.ts). */
  pipeline: GuardedPipeline;
  /** Commands to our own trackers over their open connections (Wialon IPS). */
  downlink: Downlink;
  /** What each device last told us, written in batches (installers' view). */
  devices: DeviceStatus;
  /** The alert engine, the live bus of raised alerts and the grouped alert e-mails. */
  alerts: { engine: AlertEngine; bus: AlertBus; mail: AlertMail };
  /** Push notifications: the sender and the server's public VAPID key. */
  push: { sender: Push; vapidPublicKey: string };
  /** Changed last locations and raised alerts for the live streams, from every process. */
  live: LiveFeed;
  /** Report files e-mailed in the background (attached, or a link when large). */
  reportFiles: ReportFiles;
  /** The automated reports' scheduler (started by start.ts, ticked by tests). */
  autoReports: AutoReports;
  /** Access-token signing secret: JWT_SECRET, or one generated once and kept in the database. */
  secret: string;
  /**
   * The payment provider (Asaas). Routes read it at each request: the demo points it at its
   * built-in stand-in once that listens (server/start.ts).
   */
  payments: PaymentsProvider;
  /**
   * This process's figures for GET /metrics (server/platform/metrics.ts); parts add theirs as
   * they start.
   */
  metrics: Metrics;
  /** The periodic work of this process (server/platform/jobs.ts), started by start.ts. */
  jobs: Jobs;
  /** Whether the server is stopping (readiness, live streams). */
  lifecycle: Lifecycle;
}
