/**
 * Report calls (SPEC §7 `registros/reports`). Histories and positions arrive as a stream with
 * one position per line: they are read line by line, so the screen can show how many have
 * arrived while a month of fixes comes in, and every answer is parsed with the contract.
 */
import * as v from 'valibot';
import {
  type DistanceReport,
  DistanceReportsSchema,
  type DriverReport,
  DriverReportsSchema,
  type FenceReport,
  FenceReportSchema,
  HistoryPointSchema,
  type HistoryReport,
  HistoryReportSchema,
  MessageSchema,
  type PositionRow,
  PositionRowSchema,
  type ReportRequest,
  type ReportRequestInput,
  ReportRequestPageSchema,
  ReportRequestSchema,
  SummariesSchema,
  type Summary,
  type TripsReport,
  TripsReportsSchema,
} from '../contract';
import { removeEmptyProperties } from '../lib/clean';
import { api, HTTPError } from './client';

export interface Period {
  beginAt: string;
  endAt: string;
}

export type Progress = (received: { rows: number; bytes: number }) => void;

const BASE = 'registros/reports';

/**
 * Reads a streamed report: the first line opens the object and its array, each next line is
 * one item (with a trailing comma), the last closes them. Items go to `onItem` as they come.
 */
async function readLines(
  response: Response,
  onLine: (line: string) => void,
  onProgress?: Progress,
): Promise<void> {
  if (!response.body) throw new Error('resposta sem corpo');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  let rows = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (value) {
      bytes += value.length;
      pending += value;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        onLine(line);
        rows += 1;
      }
      onProgress?.({ rows, bytes });
    }
    if (done) break;
  }
  if (pending) onLine(pending);
}

/** Streams a report whose array `key` has one item per line; the rest is parsed whole. */
async function streamed<T>(
  path: string,
  period: Period,
  key: string,
  item: v.GenericSchema<unknown, T>,
  onProgress?: Progress,
  signal?: AbortSignal,
): Promise<{ items: T[]; whole: Record<string, unknown> }> {
  const response = await api.get(path, {
    searchParams: { ...period },
    timeout: false,
    ...(signal ? { signal } : {}),
  });
  const items: T[] = [];
  const frame: string[] = [];
  const opening = `"${key}":[`;
  let inside = false;
  await readLines(
    response,
    (line) => {
      if (!inside) {
        frame.push(line);
        if (line.endsWith(opening)) inside = true;
        return;
      }
      if (line.startsWith(']')) {
        inside = false;
        frame.push(line);
        return;
      }
      items.push(v.parse(item, JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)));
    },
    (p) => onProgress?.({ rows: items.length, bytes: p.bytes }),
  );
  const whole = JSON.parse(frame.join('')) as Record<string, unknown>;
  return { items, whole };
}

export const reportsApi = {
  /** Every vehicle's visits to one geofence in the period. */
  async byFence(geofenceId: string, period: Period, signal?: AbortSignal): Promise<FenceReport> {
    const body = await api
      .get(`${BASE}/by-fence/${geofenceId}`, {
        searchParams: { ...period },
        timeout: 120_000,
        signal,
      })
      .json();
    return v.parse(FenceReportSchema, body);
  },

  async history(vehicleId: string, period: Period, onProgress?: Progress, signal?: AbortSignal) {
    const { items, whole } = await streamed(
      `${BASE}/history/${vehicleId}`,
      period,
      'positions',
      HistoryPointSchema,
      onProgress,
      signal,
    );
    return v.parse(HistoryReportSchema, { ...whole, positions: items }) as HistoryReport;
  },

  async positions(
    vehicleId: string,
    period: Period,
    onProgress?: Progress,
    signal?: AbortSignal,
  ): Promise<PositionRow[]> {
    const { items } = await streamed(
      `${BASE}/positions/${vehicleId}`,
      period,
      'positions',
      PositionRowSchema,
      onProgress,
      signal,
    );
    return items;
  },

  async trips(vehicleIds: string[], period: Period): Promise<TripsReport[]> {
    const body = await api
      .get(`${BASE}/v2/trips`, {
        searchParams: { ...period, vehicleIds: vehicleIds.join(',') },
        timeout: 120_000,
      })
      .json();
    return v.parse(TripsReportsSchema, body).vehicles;
  },

  async distance(vehicleIds: string[], period: Period): Promise<DistanceReport[]> {
    const body = await api
      .get(`${BASE}/v2/distance`, {
        searchParams: { ...period, vehicleIds: vehicleIds.join(',') },
        timeout: 120_000,
      })
      .json();
    return v.parse(DistanceReportsSchema, body).vehicles;
  },

  async summaries(vehicleIds: string[], period: Period): Promise<Summary[]> {
    const body = await api
      .get(`${BASE}/v2/light_final_report`, {
        searchParams: { ...period, vehicleIds: vehicleIds.join(',') },
        timeout: 120_000,
      })
      .json();
    return v.parse(SummariesSchema, body).vehicles;
  },

  async drivers(driverIds: string[], period: Period): Promise<DriverReport[]> {
    const body = await api
      .get(`${BASE}/v2/drivers`, {
        searchParams: { ...period, driverIds: driverIds.join(',') },
        timeout: 120_000,
      })
      .json();
    return v.parse(DriverReportsSchema, body).drivers;
  },

  async requests(params: {
    page: number;
    limit: number;
    sort: string;
    order: 'asc' | 'desc';
    search?: string;
  }) {
    const searchParams = removeEmptyProperties({ ...params }) as Record<string, string | number>;
    return v.parse(ReportRequestPageSchema, await api.get(BASE, { searchParams }).json());
  },

  async request(input: ReportRequestInput): Promise<ReportRequest> {
    return v.parse(ReportRequestSchema, await api.post(BASE, { json: input }).json());
  },

  async removeRequest(id: string): Promise<string> {
    return v.parse(MessageSchema, await api.delete(`${BASE}/${id}`).json()).message;
  },
};

/* ---------- Report files ---------- */

/** SPEC §8: 'Erro ao buscar arquivo: {status} {statusText}'. */
export class FileFetchError extends Error {
  constructor(
    readonly status: number,
    statusText: string,
    readonly reason?: string,
  ) {
    super(`Erro ao buscar arquivo: ${status} ${statusText}`.trim());
  }
}

export interface FileProgress {
  received: number;
  /** 0 when the server did not say (no Content-Length). */
  total: number;
}

export type FileResult =
  | { kind: 'file'; blob: Blob; name: string }
  | { kind: 'queued'; message: string };

/** The file name of a Content-Disposition header (SPEC §9 names). */
export function fileNameOf(header: string | null, fallback: string): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header ?? '');
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

/**
 * Fetches a report file (SPEC §7 downloads, blob) with the bytes received so far; with
 * deliveryMethod=email the server answers 202 and no file, which is returned as 'queued'.
 */
export async function downloadReportFile(
  path: string,
  params: Record<string, string>,
  onProgress?: (progress: FileProgress) => void,
  signal?: AbortSignal,
): Promise<FileResult> {
  try {
    const response = await api.get(`${BASE}/${path}`, {
      searchParams: params,
      timeout: false,
      ...(signal ? { signal } : {}),
      onDownloadProgress: (progress) =>
        onProgress?.({ received: progress.transferredBytes, total: progress.totalBytes }),
    });
    if (response.status === 202) {
      const body = (await response.json()) as { message?: string };
      return { kind: 'queued', message: body.message ?? '' };
    }
    const blob = await response.blob();
    return {
      kind: 'file',
      blob,
      name: fileNameOf(response.headers.get('content-disposition'), 'relatorio'),
    };
  } catch (error) {
    if (error instanceof HTTPError) {
      const body: unknown = await error.response
        .clone()
        .json()
        .catch(() => undefined);
      const reason =
        typeof body === 'object' && body !== null && 'message' in body
          ? String(body.message)
          : undefined;
      throw new FileFetchError(error.response.status, error.response.statusText, reason);
    }
    throw error;
  }
}
