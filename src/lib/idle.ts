/**
 * Waiting for an idle moment of the page. Pure enough for every runtime: where there is no
 * `requestIdleCallback` (Safari, a worker, Node) a timer stands in for it.
 */
type IdleHost = {
  requestIdleCallback?: (run: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Runs `run` once the page is idle (what was asked is drawn, input answered), or after
 * `timeoutMs` at the latest; without idle callbacks, after `fallbackMs`. Returns a function
 * that cancels it if it has not run yet.
 */
export function whenIdle(run: () => void, timeoutMs: number, fallbackMs = 0): () => void {
  const host = globalThis as IdleHost;
  if (typeof host.requestIdleCallback === 'function') {
    const handle = host.requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => host.cancelIdleCallback?.(handle);
  }
  const timer = setTimeout(run, fallbackMs);
  return () => clearTimeout(timer);
}

/** `whenIdle` as a promise: resolves once the page is idle, or after `timeoutMs`. */
export const idle = (timeoutMs: number) =>
  new Promise<void>((resolve) => {
    whenIdle(resolve, timeoutMs);
  });
