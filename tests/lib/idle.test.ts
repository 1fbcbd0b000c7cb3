/**
 * Waiting for an idle moment: the browser's idle callback with its deadline where there is
 * one, a timer where there is none (Node here, Safari, a worker); either can be cancelled.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idle, whenIdle } from '../../src/lib/idle';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('without idle callbacks runs after the fallback delay, unless cancelled', () => {
    vi.useFakeTimers();
    const ran: string[] = [];
    whenIdle(() => ran.push('a'), 1000, 200);
    const cancel = whenIdle(() => ran.push('b'), 1000, 200);
    cancel();
    vi.advanceTimersByTime(199);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['a']);
  });

  it('with idle callbacks asks for one with its deadline, and cancels that one', () => {
    const asked: Array<{ timeout: number; run: () => void }> = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void, options: { timeout: number }) => {
      asked.push({ run, timeout: options.timeout });
      return asked.length;
    });
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));
    const ran: string[] = [];
    whenIdle(() => ran.push('a'), 1500);
    const cancel = whenIdle(() => ran.push('b'), 3000, 1000);
    cancel();
    expect(asked.map((one) => one.timeout)).toEqual([1500, 3000]);
    expect(cancelled).toEqual([2]);
    asked[0]?.run();
    expect(ran).toEqual(['a']);
  });

  it('idle() resolves once the idle moment comes', async () => {
    let run = () => {};
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
      run = callback;
      return 1;
    });
    let resolved = false;
    const waiting = idle(1000).then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    run();
    await waiting;
    expect(resolved).toBe(true);
  });
});
