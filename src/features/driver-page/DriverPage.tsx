/**
 * /motorista/[token]: the driver's own page, made for a phone in a cab. The PIN the manager
 * gave opens it once per device; then it shows where the working day stands, the vehicle, the
 * time left before the mandatory break and today's periods, with big buttons for the marks
 * the law asks for (início de jornada, refeição, descanso, espera, fim de jornada) and one to
 * report a problem with the vehicle. Without a connection the marks are kept on the device
 * with the time they were made, the page says what waits to be sent, and it all goes when the
 * connection returns — never twice.
 */
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { FieldError, FileTrigger, Form, Label, TextArea, TextField } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import * as v from 'valibot';
import {
  closeDriverSession,
  DriverCallError,
  driverSession,
  type KeptDriverSession,
  openDriverSession,
  readDriverDay,
} from '../../api/driver-page';
import { DRIVER_PHOTO_MAX_BYTES, type DriverDay, DriverDaySchema } from '../../contract';
import { useNow } from '../../hooks/useNow';
import { useOnline } from '../../hooks/useOnline';
import { driverPageText as text } from '../../i18n/driver-page';
import { driverState, NEXT_MARKS, restNotice } from '../../lib/driver-day';
import { localClock, localDate } from '../../lib/local-time';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage } from '../../ui/States';
import { shrinkPhoto } from '../../ui/shrink-photo';
import { TextField as PinField } from '../../ui/TextField';
import {
  addToOutbox,
  clearOutbox,
  type FlushResult,
  flushOutbox,
  type OutboxItem,
  outboxItems,
} from './outbox';
import '../../ui/page.css';
import '../../ui/text.css';
import './DriverPage.css';

const DAY_KEY = 'rastro-driver-day';
/** How often the day is read again while the page is open (the break countdown ticks locally). */
const REFRESH_MS = 60_000;
/** How often what waits is tried again while some is left (besides the 'online' event). */
const RETRY_MS = 15_000;

/** 'dd/mm' of `at` when it falls on another day than `now` (Brasília days), else null. */
const otherDay = (at: number, now: number) =>
  localDate(at) === localDate(now) ? null : localDate(at).slice(0, 5);

const markLabel = (kind: string) => text.marks[kind as keyof typeof text.marks] ?? kind;

function keptDay(): DriverDay | undefined {
  try {
    const parsed = v.safeParse(
      DriverDaySchema,
      JSON.parse(localStorage.getItem(DAY_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

export function DriverPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [session, setSession] = useState<KeptDriverSession | undefined>(() => {
    const kept = driverSession.get();
    // Another link on this device (another driver) asks for its own PIN.
    return kept && (!token || kept.linkToken === token) ? kept : undefined;
  });
  // The installed app opens /motorista: the link's token stays out of the address bar after.
  useEffect(() => {
    if (session && token) void navigate('/motorista', { replace: true });
  }, [session, token, navigate]);

  const ended = useCallback(() => {
    driverSession.clear();
    clearOutbox();
    localStorage.removeItem(DAY_KEY);
    setSession(undefined);
    toast.error(text.sessionEnded);
  }, []);

  return (
    <main className="driver-page" aria-labelledby="driver-title">
      <header className="driver-header">
        <img src="/icons/rastro.svg" alt="" width="32" height="32" />
        <div>
          <h1 id="driver-title">{session?.driverName ?? text.title}</h1>
          {session && <p className="muted">{text.title}</p>}
        </div>
        <Connection />
      </header>
      {session ? (
        <DriverHome
          session={session}
          onEnded={ended}
          onSignOut={() => {
            void closeDriverSession(session.sessionToken);
            clearOutbox();
            localStorage.removeItem(DAY_KEY);
            setSession(undefined);
          }}
        />
      ) : token ? (
        <PinForm linkToken={token} onOpen={setSession} />
      ) : (
        <FormMessage kind="error">{text.noLink}</FormMessage>
      )}
    </main>
  );
}

function Connection() {
  const online = useOnline();
  return (
    <span className={`driver-connection ${online ? 'is-online' : 'is-offline'}`} role="status">
      {online ? text.online : text.offline}
    </span>
  );
}

function PinForm({
  linkToken,
  onOpen,
}: {
  linkToken: string;
  onOpen: (session: KeptDriverSession) => void;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onOpen(await openDriverSession(linkToken, pin));
    } catch (err) {
      setError(
        err instanceof DriverCallError && !err.offline && err.message ? err.message : text.offline,
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Form className="driver-card driver-pin" onSubmit={(e) => void submit(e)}>
      <h2>{text.pinTitle}</h2>
      <p className="muted">{text.pinIntro}</p>
      <PinField
        label={text.pin}
        value={pin}
        onChange={(value) => setPin(value.replace(/\D/g, '').slice(0, 6))}
        inputMode="numeric"
        autoComplete="one-time-code"
        isRequired
        minLength={4}
        maxLength={6}
        errorMessage={error}
        isInvalid={Boolean(error)}
      />
      <Button type="submit" className="driver-big" isPending={busy} isDisabled={pin.length < 4}>
        {busy ? text.entering : text.enter}
      </Button>
    </Form>
  );
}

function DriverHome({
  session,
  onEnded,
  onSignOut,
}: {
  session: KeptDriverSession;
  onEnded: () => void;
  onSignOut: () => void;
}) {
  const online = useOnline();
  const now = useNow(15_000);
  const [day, setDay] = useState<DriverDay | undefined>(keptDay);
  const [waiting, setWaiting] = useState<OutboxItem[]>(outboxItems);
  const [reporting, setReporting] = useState(false);
  const token = session.sessionToken;

  const readDay = useCallback(async () => {
    try {
      const parsed = v.parse(DriverDaySchema, await readDriverDay(token));
      localStorage.setItem(DAY_KEY, JSON.stringify(parsed));
      setDay(parsed);
    } catch (err) {
      if (err instanceof DriverCallError && err.status === 401) onEnded();
    }
  }, [token, onEnded]);

  /**
   * Sends what waits. Said in a toast when it went later (the connection came back); the
   * button that made an item says what became of it itself (`quiet`).
   */
  const flush = useCallback(
    async (quiet = false): Promise<FlushResult | undefined> => {
      if (outboxItems().length === 0) return undefined;
      const result = await flushOutbox(token);
      setWaiting(outboxItems());
      if (result.sessionEnded) {
        onEnded();
        return result;
      }
      for (const { item, message } of result.refused)
        toast.error(
          `${item.kind === 'marks' ? markLabel(String(item.body.kind)) : text.problemPending}: ${message}`,
        );
      if (result.stored.length > 0) {
        if (!quiet) toast.success(text.sent(result.stored.length));
        await readDay();
      }
      return result;
    },
    [token, onEnded, readDay],
  );

  useEffect(() => {
    void flush().then(() => readDay());
    const refresh = setInterval(() => void readDay(), REFRESH_MS);
    const retry = setInterval(() => void flush(), RETRY_MS);
    // The worker sent what it kept (background sync): read the day again.
    const fromWorker = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'RASTRO_DRIVER_SENT') void readDay();
    };
    navigator.serviceWorker?.addEventListener('message', fromWorker);
    return () => {
      clearInterval(refresh);
      clearInterval(retry);
      navigator.serviceWorker?.removeEventListener('message', fromWorker);
    };
  }, [flush, readDay]);
  useEffect(() => {
    if (online) void flush();
  }, [online, flush]);

  const pendingMarks = useMemo(
    () =>
      waiting
        .filter((item) => item.kind === 'marks')
        .map((item) => ({ id: item.id, kind: String(item.body.kind), at: item.body.at })),
    [waiting],
  );
  const marks = useMemo(() => {
    const known = new Set((day?.marks ?? []).map((m) => m.id));
    return [...(day?.marks ?? []), ...pendingMarks.filter((m) => !known.has(m.id))];
  }, [day, pendingMarks]);
  const { state, since } = driverState(marks);

  async function keep(item: OutboxItem, done: string, queued: string) {
    addToOutbox(item);
    setWaiting(outboxItems());
    const result = await flush(true);
    // Refused for good: flush already said why.
    if (result?.refused.some((r) => r.item.id === item.id) || result?.sessionEnded) return;
    if (outboxItems().some((i) => i.id === item.id)) toast.warning(queued);
    else toast.success(done);
  }

  function mark(kind: string) {
    const at = new Date().toISOString();
    const id = crypto.randomUUID();
    const label = markLabel(kind);
    void keep(
      { id, kind: 'marks', body: { id, kind, at } },
      text.marked(label, localClock(at)),
      text.markedOffline(label, localClock(at)),
    );
  }

  const breakLeft = day?.breakDueAt ? Date.parse(day.breakDueAt) - now : null;
  const rest = restNotice(marks, day?.journeys ?? [], now);

  return (
    <>
      <section className="driver-card driver-status" aria-labelledby="driver-now">
        <h2 id="driver-now" className="muted">
          {text.now}
        </h2>
        <p className={`driver-state driver-state-${state}`}>
          <strong>{text.states[state]}</strong>
          {since && <span> {text.since(localClock(since))}</span>}
        </p>
        <p>
          {text.vehicle}:{' '}
          {day?.vehicle ? (
            <strong>
              {day.vehicle.plate} · {day.vehicle.name}
            </strong>
          ) : (
            <span className="muted">{text.noVehicle}</span>
          )}
        </p>
        {breakLeft !== null && state === 'working' && (
          <p
            className={breakLeft <= 30 * 60_000 ? 'driver-break is-near' : 'driver-break'}
            role="status"
          >
            {breakLeft > 0 ? (
              <>
                {text.nextBreak} <strong>{text.hoursMinutes(breakLeft)}</strong>
              </>
            ) : (
              <strong>{text.breakNow}</strong>
            )}
          </p>
        )}
      </section>

      {rest?.kind === 'resting' && (
        <section className="driver-card driver-rest" aria-label={text.restTitle}>
          <p>
            <strong>
              {text.restComplete(otherDay(rest.completeAt, now), localClock(rest.completeAt))}
            </strong>
          </p>
          <p className="muted">{text.restCompleteHint}</p>
        </section>
      )}
      {rest?.kind === 'short' && (
        <section className="driver-card driver-rest is-short" role="alert">
          <h2>{text.restShort}</h2>
          <p>{text.restShortWhy(text.hoursMinutes(rest.restMs))}</p>
          <p>
            {rest.remainder
              ? text.restRemainder(
                  text.hoursMinutes(rest.remainder.ms),
                  otherDay(rest.remainder.by, now),
                  localClock(rest.remainder.by),
                )
              : text.restFirstTooShort}
          </p>
        </section>
      )}

      <section className="driver-marks" aria-label={text.now}>
        {NEXT_MARKS[state].map((kind) => (
          <Button
            key={kind}
            className={`driver-big driver-mark-${kind}`}
            variant={kind === 'journey_end' ? 'secondary' : 'primary'}
            onPress={() => mark(kind)}
          >
            {markLabel(kind)}
          </Button>
        ))}
      </section>

      {waiting.length > 0 && (
        <section className="driver-card driver-pending" role="status" aria-live="polite">
          <strong>{text.pending(waiting.length)}</strong>
          <ul>
            {waiting.map((item) => (
              <li key={item.id}>
                {item.kind === 'marks' ? markLabel(String(item.body.kind)) : text.problemPending} ·{' '}
                {localClock(item.body.at)}
              </li>
            ))}
          </ul>
          <p className="muted">{text.pendingHint}</p>
        </section>
      )}

      {reporting ? (
        <ProblemForm
          onCancel={() => setReporting(false)}
          onSend={(body) => {
            setReporting(false);
            void keep(
              { id: body.id, kind: 'problems', body },
              text.problemSent,
              text.problemQueued,
            );
          }}
        />
      ) : (
        <Button className="driver-big" variant="secondary" onPress={() => setReporting(true)}>
          {text.problem}
        </Button>
      )}

      <section className="driver-card" aria-labelledby="driver-today">
        <h2 id="driver-today">{text.today}</h2>
        {day && day.periods.length > 0 ? (
          <ol className="driver-periods">
            {day.periods.map((period) => (
              <li key={`${period.kind}-${period.start}`} className={`driver-period-${period.kind}`}>
                <span className="driver-period-kind">
                  {text.periods[period.kind] ?? period.kind}
                </span>
                <span>
                  {localClock(period.start)}–{localClock(period.end)}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">{text.noPeriods}</p>
        )}
        {day && <p className="muted">{text.updatedAt(localClock(day.at))}</p>}
      </section>

      <Button variant="ghost" onPress={onSignOut}>
        {text.signOut}
      </Button>
    </>
  );
}

function ProblemForm({
  onCancel,
  onSend,
}: {
  onCancel: () => void;
  onSend: (body: { id: string; at: string; text: string; photo?: string }) => void;
}) {
  const [description, setDescription] = useState('');
  const [photo, setPhoto] = useState<string>();
  const [photoError, setPhotoError] = useState<string>();
  async function pick(file: File | undefined) {
    setPhotoError(undefined);
    if (!file) return setPhoto(undefined);
    try {
      setPhoto(await shrinkPhoto(file, DRIVER_PHOTO_MAX_BYTES));
    } catch {
      setPhoto(undefined);
      setPhotoError(text.photoUnreadable);
    }
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    onSend({
      id: crypto.randomUUID(),
      at: new Date().toISOString(),
      text: description.trim(),
      ...(photo ? { photo } : {}),
    });
  }
  return (
    <Form className="driver-card driver-problem" onSubmit={submit}>
      <h2>{text.problemTitle}</h2>
      <TextField
        className="field"
        value={description}
        onChange={setDescription}
        isRequired
        minLength={3}
        maxLength={1000}
      >
        <Label>{text.problemText}</Label>
        <TextArea rows={4} />
        <FieldError />
      </TextField>
      <div className="driver-photo">
        <FileTrigger
          acceptedFileTypes={['image/*']}
          defaultCamera="environment"
          onSelect={(files) => void pick(files?.[0])}
        >
          <Button variant="secondary">{photo ? text.problemPhotoOther : text.problemPhoto}</Button>
        </FileTrigger>
        {photo && (
          <Button variant="ghost" onPress={() => setPhoto(undefined)}>
            {text.problemPhotoRemove}
          </Button>
        )}
      </div>
      {photoError && <FormMessage kind="error">{photoError}</FormMessage>}
      {photo && <img className="driver-photo-preview" src={photo} alt="" />}
      <div className="driver-problem-actions">
        <Button variant="secondary" onPress={onCancel}>
          {text.cancel}
        </Button>
        <Button type="submit" isDisabled={description.trim().length < 3}>
          {text.send}
        </Button>
      </div>
    </Form>
  );
}
