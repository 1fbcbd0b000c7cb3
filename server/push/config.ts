/**
 * Push configuration, read from the environment by server/platform/config.ts.
 *
 * - Firebase Cloud Messaging when FIREBASE_SERVICE_ACCOUNT (the service-account JSON, inline
 *   or a file path), FIREBASE_WEB_CONFIG (the web app's config JSON) and FIREBASE_VAPID_KEY
 *   (the project's web push certificate, public key) are all set. FCM_URL and
 *   FIREBASE_TOKEN_URL point the sender at a local stand-in in tests.
 * - Otherwise standard Web Push, with VAPID keys generated once and kept in the database.
 *   Web Push subscriptions registered while Firebase was configured still receive.
 * - A subscription endpoint must be https on a known push service (PUSH_ENDPOINT_HOSTS) and
 *   resolve to public addresses only (server/push/endpoint.ts), so that a token cannot aim the
 *   server at an address on its own network; PUSH_INSECURE_ENDPOINTS lifts that for the
 *   tests' local http stand-ins, and only for them.
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import * as o from '../../src/contract/objects';
import { parsePushHosts } from './endpoint';

export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  tokenUri: string | undefined;
}

/** What the page and the worker need to initialise Firebase (all public). */
export interface FirebaseWebConfig {
  apiKey: string;
  projectId: string;
  messagingSenderId: string;
  appId: string;
  authDomain?: string | undefined;
  storageBucket?: string | undefined;
}

export interface PushConfig {
  firebase:
    | {
        serviceAccount: ServiceAccount;
        web: FirebaseWebConfig;
        vapidKey: string;
        fcmUrl: string;
        tokenUrl: string;
      }
    | undefined;
  /** The VAPID `sub`: a mailto: or https: address push services may write to. */
  webPushSubject: string;
  /** Hosts a Web Push endpoint may name (`*.domain` for any name under it). */
  endpointHosts: string[];
  /** Tests only: any http(s) endpoint, any address. */
  insecureEndpoints: boolean;
}

/** Hosts the page's Firebase SDK calls to get a token (the CSP's connect-src). */
export const FIREBASE_PAGE_HOSTS = [
  'https://fcmregistrations.googleapis.com',
  'https://firebaseinstallations.googleapis.com',
];

const ServiceAccountSchema = o.object({
  project_id: v.pipe(v.string(), v.nonEmpty()),
  client_email: v.pipe(v.string(), v.nonEmpty()),
  private_key: v.pipe(v.string(), v.includes('PRIVATE KEY')),
  token_uri: v.optional(v.string()),
});

const WebConfigSchema = o.object({
  apiKey: v.pipe(v.string(), v.nonEmpty()),
  projectId: v.pipe(v.string(), v.nonEmpty()),
  messagingSenderId: v.pipe(v.string(), v.nonEmpty()),
  appId: v.pipe(v.string(), v.nonEmpty()),
  authDomain: v.optional(v.string()),
  storageBucket: v.optional(v.string()),
});

class PushConfigError extends Error {}

function json(name: string, value: string): unknown {
  const text = value.trimStart().startsWith('{') ? value : readText(name, value);
  try {
    return JSON.parse(text);
  } catch {
    throw new PushConfigError(`${name}: JSON inválido`);
  }
}

function readText(name: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new PushConfigError(`${name}: arquivo não encontrado (${file})`);
  }
}

function parse<T>(name: string, schema: v.GenericSchema<unknown, T>, value: string): T {
  const result = v.safeParse(schema, json(name, value));
  if (!result.success)
    throw new PushConfigError(
      `${name}: faltam campos (${result.issues.map((i) => v.getDotPath(i) ?? '?').join(', ')})`,
    );
  return result.output;
}

export function pushConfig(e: {
  FIREBASE_SERVICE_ACCOUNT?: string | undefined;
  FIREBASE_WEB_CONFIG?: string | undefined;
  FIREBASE_VAPID_KEY?: string | undefined;
  FCM_URL: string;
  FIREBASE_TOKEN_URL?: string | undefined;
  WEB_PUSH_SUBJECT?: string | undefined;
  PUSH_INSECURE_ENDPOINTS: boolean;
  PUSH_ENDPOINT_HOSTS?: string | undefined;
  PUBLIC_URL?: string | undefined;
}): PushConfig {
  const given = [e.FIREBASE_SERVICE_ACCOUNT, e.FIREBASE_WEB_CONFIG, e.FIREBASE_VAPID_KEY];
  const some = given.some(Boolean);
  if (some && !given.every(Boolean))
    throw new PushConfigError(
      'FIREBASE_SERVICE_ACCOUNT, FIREBASE_WEB_CONFIG e FIREBASE_VAPID_KEY: informe as três, ou nenhuma (Web Push)',
    );
  let firebase: PushConfig['firebase'];
  if (e.FIREBASE_SERVICE_ACCOUNT && e.FIREBASE_WEB_CONFIG && e.FIREBASE_VAPID_KEY) {
    const account = parse(
      'FIREBASE_SERVICE_ACCOUNT',
      ServiceAccountSchema,
      e.FIREBASE_SERVICE_ACCOUNT,
    );
    firebase = {
      serviceAccount: {
        projectId: account.project_id,
        clientEmail: account.client_email,
        privateKey: account.private_key,
        tokenUri: account.token_uri,
      },
      web: parse('FIREBASE_WEB_CONFIG', WebConfigSchema, e.FIREBASE_WEB_CONFIG),
      vapidKey: e.FIREBASE_VAPID_KEY,
      fcmUrl: e.FCM_URL.replace(/\/+$/, ''),
      tokenUrl: e.FIREBASE_TOKEN_URL ?? account.token_uri ?? 'https://oauth2.googleapis.com/token',
    };
  }
  const publicUrl = e.PUBLIC_URL?.startsWith('https://') ? e.PUBLIC_URL : undefined;
  return {
    firebase,
    webPushSubject: e.WEB_PUSH_SUBJECT ?? publicUrl ?? 'mailto:nao-responda@rastro.local',
    endpointHosts: parsePushHosts(e.PUSH_ENDPOINT_HOSTS),
    insecureEndpoints: e.PUSH_INSECURE_ENDPOINTS,
  };
}

export { PushConfigError };
