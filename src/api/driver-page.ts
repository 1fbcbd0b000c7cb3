/**
 * Calls of the driver's own page and the managers' calls about it. The driver's page has no
 * user session: it calls with the session its link and PIN opened (kept on the device until
 * the link ends), through plain fetch, so that a 401 never starts a user's token renewal.
 */
import * as v from 'valibot';
import {
  type DriverLink,
  DriverLinkCreatedSchema,
  DriverLinkListSchema,
  DriverProblemReportListSchema,
  DriverSessionSchema,
  MessageSchema,
} from '../contract';
import { api } from './client';
import { driverSession, type KeptDriverSession } from './driver-session';

export { driverSession, type KeptDriverSession };

const BASE = '/registros/driver-page';

/** A failed call of the driver's page: the server's status and pt-BR message, or no answer. */
export class DriverCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  /** No answer at all (no connection): worth sending again later. */
  get offline() {
    return this.status === 0;
  }
}

async function call(path: string, init: RequestInit & { json?: unknown; token?: string }) {
  const headers = new Headers();
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
  } catch {
    throw new DriverCallError(0, 'offline');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : '';
    throw new DriverCallError(response.status, message);
  }
  return { status: response.status, body };
}

export async function openDriverSession(linkToken: string, pin: string) {
  const { body } = await call('/session', { method: 'POST', json: { token: linkToken, pin } });
  const session = v.parse(DriverSessionSchema, body);
  const kept = { ...session, linkToken };
  driverSession.set(kept);
  return kept;
}

export async function closeDriverSession(token: string) {
  await call('/me/sign-out', { method: 'POST', token }).catch(() => undefined);
  driverSession.clear();
}

/**
 * Sends one thing the driver made (a mark, a problem). Answers whether the server stored it
 * (200 or 201: sent before or now) or the device's worker queued it for the connection's
 * return (202); throws DriverCallError otherwise.
 */
export async function sendDriverItem(
  token: string,
  kind: 'marks' | 'problems',
  body: object,
): Promise<'stored' | 'queued'> {
  const { status } = await call(`/me/${kind}`, { method: 'POST', json: body, token });
  return status === 202 ? 'queued' : 'stored';
}

export async function readDriverDay(token: string) {
  return (await call('/me/today', { token })).body;
}

// Managers: a driver's links and the problems drivers reported.

export async function listDriverLinks(driverId: string): Promise<DriverLink[]> {
  return v.parse(
    DriverLinkListSchema,
    await api.get('registros/driver-links', { searchParams: { driverId } }).json(),
  );
}

export async function createDriverLink(body: { driverId: string; pin: string; expiresAt: string }) {
  return v.parse(
    DriverLinkCreatedSchema,
    await api.post('registros/driver-links', { json: body }).json(),
  );
}

export async function revokeDriverLink(id: string) {
  return v.parse(MessageSchema, await api.post(`registros/driver-links/${id}/revoke`).json());
}

export async function listDriverReports() {
  return v.parse(DriverProblemReportListSchema, await api.get('registros/driver-reports').json());
}

export async function resolveDriverReport(id: string) {
  return v.parse(MessageSchema, await api.post(`registros/driver-reports/${id}/resolve`).json());
}

/** A report's photo, read with the manager's token, as an address an <img> can show. */
export async function driverReportPhoto(id: string): Promise<string> {
  const blob = await api.get(`registros/driver-reports/${id}/photo`).blob();
  return URL.createObjectURL(blob);
}
