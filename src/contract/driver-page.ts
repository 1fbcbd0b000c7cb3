/**
 * The driver's own page (/motorista/…): a personal link a manager makes for one driver, with an
 * expiry and a PIN of 4 to 6 digits; on the driver's phone, the PIN opens a session that reads
 * the driver's day and sends their working-day marks and vehicle problems. The page keeps marks
 * made offline and sends them later: each carries the id and time the phone gave it, so a mark
 * sent twice is stored once, at the time the driver pressed the button.
 */
import * as v from 'valibot';
import { IdSchema, IsoTimestampSchema } from './common';
import { MARK_FUTURE_SKEW_MS, MARK_MAX_AGE_MS } from './jornada';
import * as o from './objects';

export const DRIVER_PIN_MESSAGE = 'O PIN tem de 4 a 6 dígitos';
export const DRIVER_LINK_EXPIRY_MESSAGE = 'A validade do link deve ser futura e de no máximo 1 ano';
/** The longest a driver's link may work before a manager makes a new one. */
export const DRIVER_LINK_MAX_DAYS = 366;

export const DriverPinSchema = v.pipe(
  v.string(DRIVER_PIN_MESSAGE),
  v.regex(/^\d{4,6}$/, DRIVER_PIN_MESSAGE),
);

export const DriverLinkCreateSchema = o.strictObject({
  driverId: IdSchema,
  pin: DriverPinSchema,
  expiresAt: v.pipe(
    IsoTimestampSchema,
    v.check((at) => {
      const ms = Date.parse(at) - Date.now();
      return ms > 0 && ms <= DRIVER_LINK_MAX_DAYS * 86_400_000;
    }, DRIVER_LINK_EXPIRY_MESSAGE),
  ),
});
export type DriverLinkCreate = v.InferOutput<typeof DriverLinkCreateSchema>;

export const DriverLinkQuerySchema = o.strictObject({ driverId: IdSchema });

export const DRIVER_LINK_STATES = ['active', 'locked', 'expired', 'revoked'] as const;
export type DriverLinkState = (typeof DRIVER_LINK_STATES)[number];

export const DriverLinkSchema = o.object({
  id: IdSchema,
  driverId: IdSchema,
  state: v.picklist(DRIVER_LINK_STATES),
  expiresAt: v.string(),
  revokedAt: v.nullable(v.string()),
  lockedUntil: v.nullable(v.string()),
  lastUsedAt: v.nullable(v.string()),
  createdAt: v.string(),
});
export type DriverLink = v.InferOutput<typeof DriverLinkSchema>;
export const DriverLinkListSchema = v.array(DriverLinkSchema);

/** The answer to a new link: the only time its address is shown (only its hash is kept). */
export const DriverLinkCreatedSchema = o.object({ link: DriverLinkSchema, path: v.string() });
export type DriverLinkCreated = v.InferOutput<typeof DriverLinkCreatedSchema>;

export const DriverSignInSchema = o.strictObject({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'Link inválido')),
  pin: DriverPinSchema,
});

export const DriverSessionSchema = o.object({
  sessionToken: v.string(),
  driverName: v.string(),
  expiresAt: v.string(),
});
export type DriverSession = v.InferOutput<typeof DriverSessionSchema>;

export const DRIVER_LINK_UNKNOWN = 'Link não encontrado. Peça um novo ao gestor.';
export const DRIVER_LINK_ENDED = 'Este link expirou ou foi revogado. Peça um novo ao gestor.';
export const DRIVER_PIN_WRONG = 'PIN incorreto';
export const DRIVER_LINK_LOCKED = 'Muitas tentativas com PIN errado. Tente de novo mais tarde.';
export const DRIVER_SESSION_ENDED = 'Sessão encerrada. Abra o link do motorista de novo.';

export const DRIVER_REPORT_TIME_MESSAGE =
  'Horário do relato inválido: no futuro ou de mais de 7 dias atrás';

/**
 * The time the phone gave a problem report: within the bounds a working-day mark's time has
 * (a little ahead of our clock at most, a week old at most: kept offline that long).
 */
const ReportTimeSchema = v.pipe(
  IsoTimestampSchema,
  v.check((at) => {
    const age = Date.now() - Date.parse(at);
    return age >= -MARK_FUTURE_SKEW_MS && age <= MARK_MAX_AGE_MS;
  }, DRIVER_REPORT_TIME_MESSAGE),
);

/** The biggest photo a problem report may carry, after the phone made it smaller. */
export const DRIVER_PHOTO_MAX_BYTES = 600 * 1024;
export const DRIVER_PHOTO_MESSAGE = 'Foto inválida: envie JPEG, PNG ou WebP de até 600 KB';
const PHOTO = /^data:image\/(jpeg|png|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

export const DriverProblemSchema = o.strictObject({
  id: IdSchema,
  at: ReportTimeSchema,
  text: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(3, 'Descreva o problema'),
    v.maxLength(1000, 'Descreva o problema em até 1000 caracteres'),
  ),
  photo: v.optional(
    v.pipe(
      v.string(),
      v.regex(PHOTO, DRIVER_PHOTO_MESSAGE),
      v.check(
        (d) => (d.length - d.indexOf(',') - 1) * 0.75 <= DRIVER_PHOTO_MAX_BYTES,
        DRIVER_PHOTO_MESSAGE,
      ),
    ),
  ),
});
export type DriverProblem = v.InferOutput<typeof DriverProblemSchema>;

/** The parts of a photo data URL the schema accepted. */
export function photoParts(dataUrl: string): { type: string; bytes: Uint8Array } | undefined {
  const match = PHOTO.exec(dataUrl);
  if (!match) return undefined;
  const binary = atob(match[2] ?? '');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return { type: `image/${match[1]}`, bytes };
}

export const DriverProblemReportSchema = o.object({
  id: IdSchema,
  driverId: IdSchema,
  driverName: v.string(),
  vehicleId: v.nullable(IdSchema),
  plate: v.nullable(v.string()),
  text: v.string(),
  hasPhoto: v.boolean(),
  reportedAt: v.string(),
  resolvedAt: v.nullable(v.string()),
});
export type DriverProblemReport = v.InferOutput<typeof DriverProblemReportSchema>;
export const DriverProblemReportListSchema = v.array(DriverProblemReportSchema);

/** A mark as the driver's page shows it. */
export const DriverDayMarkSchema = o.object({ id: IdSchema, kind: v.string(), at: v.string() });
export type DriverDayMark = v.InferOutput<typeof DriverDayMarkSchema>;

/** A period of the driver's day as the page lists it (its kind: driving, work, waiting…). */
export const DriverDayPeriodSchema = o.object({
  kind: v.string(),
  start: v.string(),
  end: v.string(),
  source: v.string(),
});

/** The driver's day as their page reads it: today's marks and periods, the vehicle, the break. */
export const DriverDaySchema = o.object({
  driverName: v.string(),
  vehicle: v.nullable(o.object({ plate: v.string(), name: v.string() })),
  marks: v.array(DriverDayMarkSchema),
  periods: v.array(DriverDayPeriodSchema),
  /** When the driving since the last break reaches the legal limit (null: not driving now). */
  breakDueAt: v.nullable(v.string()),
  /**
   * The driver's journeys of the last two days, from marks and trackers: where the last rest
   * began, so that the page tells when 11 h of rest are complete. Optional: a day kept on the
   * phone by an older version of the page has none.
   */
  journeys: v.optional(v.array(o.object({ start: v.string(), end: v.string() })), []),
  at: v.string(),
});
export type DriverDay = v.InferOutput<typeof DriverDaySchema>;
