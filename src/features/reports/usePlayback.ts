/**
 * Playback of a history: a cursor in time that moves while playing (1× is one minute of
 * history per second, up to 32×), or where the user puts it; the position shown is the last
 * fix at or before the cursor.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16, 32] as const;
/** History milliseconds played per real millisecond at 1×. */
const BASE_RATE = 60;

function lastAtOrBefore(times: number[], time: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || time < (times[0] ?? 0)) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((times[mid] ?? 0) <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function usePlayback(times: number[]) {
  const [time, setTime] = useState(() => times[0] ?? 0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(8);
  const clock = useRef({ time, speed });
  clock.current.speed = speed;

  // A new history starts at its beginning, paused.
  useEffect(() => {
    const first = times[0] ?? 0;
    clock.current.time = first;
    setTime(first);
    setPlaying(false);
  }, [times]);

  useEffect(() => {
    if (!playing) return;
    const end = times[times.length - 1] ?? 0;
    let last = performance.now();
    let frame = requestAnimationFrame(function tick(now) {
      const next = Math.min(
        end,
        clock.current.time + (now - last) * BASE_RATE * clock.current.speed,
      );
      last = now;
      clock.current.time = next;
      setTime(next);
      if (next >= end) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, times]);

  const seek = useCallback(
    (index: number) => {
      const at = times[Math.max(0, Math.min(times.length - 1, index))] ?? 0;
      clock.current.time = at;
      setTime(at);
    },
    [times],
  );

  const toggle = useCallback(() => {
    setPlaying((was) => {
      // Playing again from the end starts over.
      if (!was && clock.current.time >= (times[times.length - 1] ?? 0)) seek(0);
      return !was;
    });
  }, [times, seek]);

  return {
    index: lastAtOrBefore(times, time),
    time,
    playing,
    toggle,
    speed,
    setSpeed,
    seek,
  };
}
