/**
 * The embedded PGlite database on a worker thread of its own (pglite-worker.js), reached
 * with node-postgres through in-memory streams that stand in for sockets. So the server's
 * event loop stays free while a long query runs, and both databases go through the same
 * driver (drizzle's node-postgres), with the same types, errors (SQLSTATE codes) and
 * transactions. Measured against the alternatives in docs/deployment.md.
 *
 * - PGlite is one backend: the pool over it has one connection, so a transaction holds it
 *   and every other statement waits for its end — as with PGlite in-process.
 * - Answers come in parts, handed to node-postgres one per turn of the event loop, so a
 *   large result is parsed between other work rather than in one long stop.
 * - The thread keeps the process alive only while a connection is in use (node-postgres's
 *   pool refs and unrefs its connections, as it does with sockets).
 */

import type { EventLoopUtilization } from 'node:perf_hooks';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';

export interface WorkerData {
  /** A folder, or 'memory://'. */
  dataDir: string;
}
export type ToWorker =
  | { type: 'data'; conn: number; data: Uint8Array }
  | { type: 'end'; conn: number }
  | { type: 'close' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'data'; conn: number; data: Uint8Array }
  | { type: 'failed'; message: string }
  | { type: 'closed' };

export interface PgliteThread {
  /** A new connection's stream, for node-postgres's `stream` option. */
  stream(): Duplex;
  /** Called when the thread fails (after which every connection fails too). */
  onError(listener: (err: Error) => void): void;
  /** How busy the database thread has been (PGlite runs on its event loop), for benches. */
  utilization(since?: EventLoopUtilization): EventLoopUtilization;
  /** Closes the database and ends the thread; the pool must be ended first. */
  close(): Promise<void>;
}

export async function startPgliteThread(dataDir: string): Promise<PgliteThread> {
  const data: WorkerData = { dataDir };
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: data });
  const connections = new Map<number, Connection>();
  /** Connections lent out by the pool: while any is, the thread keeps the process alive. */
  const inUse = new Set<number>();
  const errorListeners = new Set<(err: Error) => void>();
  let nextConn = 1;
  let failure: Error | undefined;
  let closing = false;

  const post = (message: ToWorker, transfer: ArrayBuffer[] = []) =>
    worker.postMessage(message, transfer);
  const hold = (conn: number, on: boolean) => {
    if (on) inUse.add(conn);
    else inUse.delete(conn);
    if (inUse.size > 0 || closing) worker.ref();
    else worker.unref();
  };
  const fail = (err: Error) => {
    if (failure) return;
    failure = err;
    for (const connection of connections.values()) connection.destroy(err);
    for (const listener of errorListeners) listener(err);
  };

  /** One connection: node-postgres writes requests to it and reads answers from it. */
  class Connection extends Duplex {
    readonly conn = nextConn++;
    private inbox: Buffer[] = [];

    // What node-postgres calls on a socket.
    connect() {
      connections.set(this.conn, this);
      hold(this.conn, true);
      process.nextTick(() => {
        if (failure) this.destroy(failure);
        else this.emit('connect');
      });
      return this;
    }
    setNoDelay() {
      return this;
    }
    setKeepAlive() {
      return this;
    }
    ref() {
      hold(this.conn, true);
      return this;
    }
    unref() {
      hold(this.conn, false);
      return this;
    }

    receive(part: Buffer) {
      this.inbox.push(part);
      if (this.inbox.length === 1) setImmediate(() => this.deliver());
    }
    private deliver() {
      const part = this.inbox.shift();
      if (!part) return;
      this.push(part);
      if (this.inbox.length > 0) setImmediate(() => this.deliver());
    }

    override _read() {}
    override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error) => void) {
      if (failure) return done(failure);
      const copy = new Uint8Array(chunk);
      post({ type: 'data', conn: this.conn, data: copy }, [copy.buffer]);
      done();
    }
    // node-postgres corks the messages of a query (parse, bind, execute, sync): they cross
    // to the thread as one message, not one each (each crossing has a cost of its own).
    override _writev(
      chunks: { chunk: Buffer; encoding: BufferEncoding }[],
      done: (err?: Error | null) => void,
    ) {
      if (failure) return done(failure);
      let size = 0;
      for (const { chunk } of chunks) size += chunk.length;
      const all = new Uint8Array(size);
      let offset = 0;
      for (const { chunk } of chunks) {
        all.set(chunk, offset);
        offset += chunk.length;
      }
      post({ type: 'data', conn: this.conn, data: all }, [all.buffer]);
      done();
    }
    override _final(done: () => void) {
      this.release();
      this.push(null);
      done();
    }
    override _destroy(err: Error | null, done: (err: Error | null) => void) {
      this.release();
      done(err);
    }
    private release() {
      if (!connections.delete(this.conn)) return;
      hold(this.conn, false);
      if (!failure) post({ type: 'end', conn: this.conn });
    }
  }

  worker.on('message', (message: FromWorker) => {
    if (message.type === 'data')
      connections
        .get(message.conn)
        ?.receive(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.length));
    else if (message.type === 'failed') fail(new Error(`PGlite: ${message.message}`));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`PGlite: a thread do banco terminou (${code})`)));

  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== 'ready') return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  worker.unref();

  return {
    stream: () => new Connection(),
    onError: (listener) => errorListeners.add(listener),
    utilization: (since) => worker.performance.eventLoopUtilization(since),
    async close() {
      if (failure) return;
      closing = true;
      worker.ref();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      post({ type: 'close' });
      await exited;
    },
  };
}
