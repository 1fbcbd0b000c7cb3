/**
 * The event loop's longest pause, as the benches print it: times a run and the longest gap
 * between the ticks of a 5 ms timer meanwhile, i.e. the longest the process could answer
 * nothing. The timer ticks once more after the run, so a run that blocked the thread until
 * it resolved is counted too (`monitorEventLoopDelay` missed exactly that case).
 */
export async function withLoopWatch<T>(run: () => Promise<T>) {
  let last = performance.now();
  let pauseMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    pauseMs = Math.max(pauseMs, now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  const result = await run();
  const ms = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(ticker);
  return { result, ms, pauseMs };
}
