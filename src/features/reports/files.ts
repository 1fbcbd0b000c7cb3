/**
 * Which download call (SPEC §7) makes the file of a report the form asks for, and how a
 * received file is saved (the browser's own download, with the SPEC §9 name).
 */
import type { ReportType } from '../../contract';

export type FileChoice = 'screen' | 'excel' | 'pdf' | 'kml';

/** The call and its query for a report type, vehicles or drivers, and a period. */
export function downloadCall(
  type: ReportType,
  ids: string[],
  period: { beginAt: string; endAt: string },
  format: Exclude<FileChoice, 'screen'>,
  delivery: { method: 'download' | 'email'; emails: string },
): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {
    ...period,
    format,
    deliveryMethod: delivery.method,
    ...(delivery.method === 'email' && delivery.emails.trim()
      ? { emails: delivery.emails.trim() }
      : {}),
  };
  const single = ids.length === 1 ? ids[0] : undefined;
  switch (type) {
    case 'HISTORY':
      return single
        ? { path: `download/history/${single}`, params }
        : { path: 'v2/download/history', params: { ...params, vehicleIds: ids.join(',') } };
    case 'POSITIONS':
      return single
        ? { path: `download/positions/${single}`, params }
        : { path: 'v2/download/positions', params: { ...params, vehicleIds: ids.join(',') } };
    case 'TRIPS':
      return single
        ? { path: `download/trips/${single}`, params }
        : { path: 'v2/download/trips', params: { ...params, vehicleIds: ids.join(',') } };
    case 'DISTANCE':
      return single
        ? { path: `download/distance/${single}`, params }
        : { path: 'v2/download/distance', params: { ...params, vehicleIds: ids.join(',') } };
    case 'DRIVERS':
      return { path: 'v2/download/drivers', params: { ...params, driverIds: ids.join(',') } };
    default:
      return {
        path: 'v2/download/light_final_report',
        params: { ...params, vehicleIds: ids.join(',') },
      };
  }
}

const bytes = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
/** '850 KB', '3,4 MB'. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1_048_576) return `${bytes.format(n / 1024)} KB`;
  return `${bytes.format(n / 1_048_576)} MB`;
}
