/**
 * Imported first: the server's push configuration (`self.RASTRO_PUSH`, see
 * server/alerts/routes/push.ts) before anything else runs, so that Firebase can start at the
 * worker's top level.
 * Imported scripts are kept with the installed worker, so it also runs offline. Without it
 * (an old server), the worker still takes standard Web Push.
 */
try {
  importScripts('/push-config.js');
} catch (err) {
  console.warn('push: no configuration from the server', err);
}
