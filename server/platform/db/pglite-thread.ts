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
 * - A thread that fails (PGlite aborted, the thread ended) fails every connection to it, and
 *   can be replaced by a new thread on the same data folder (`restart`): the database's
 *   health does that when it finds the database gone (server/platform/db/health.ts).
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailable } from './health';

export interface WorkerData {
  /** A folder, or 'memory://'. */
  dataDir: string;
  /** In memory only: a tarball of a data folder (PGlite's dumpDataDir) to start from. */
  snapshot?: string | undefined;
  /** PostgreSQL's shared_buffers ('16MB'); PGlite's default when absent. */
  sharedBuffers?: string | undefined;
  /** PGlite's PostgreSQL, compiled (`compiledPglite`); PGlite compiles its own when absent. */
  wasmModule?: WebAssembly.Module | undefined;
}
export type ToWorker =
  | { type: 'data'; conn: number; data: Uint8Array }
  | { type: 'end'; conn: number }
  | { type: 'dump' }
  | { type: 'close' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'data'; conn: number; data: Uint8Array }
  | { type: 'failed'; message: string }
  | { type: 'dumped'; data: Uint8Array }
  | { type: 'closed' };

export interface PgliteThread {
  /** A new connection's stream, for node-postgres's `stream` option (to the current thread). */
  stream(): Duplex;
  /** Called when the thread fails (after which every connection to it fails too). */
  onError(listener: (err: Error) => void): void;
  /** Whether the current thread failed. */
  failed(): boolean;
  /**
   * Starts a new thread on the same data folder after a failure: PGlite reopens it as
   * PostgreSQL does after a crash (committed work is on disk). An in-memory database died with
   * its thread and is not started again.
   */
  restart(): Promise<void>;
  /** Ends the thread abruptly, as a crash would (a fault drill). */
  crash(): Promise<void>;
  /** The data folder as a tarball, taken between two statements. */
  dump(): Promise<Uint8Array>;
  /** How busy the database thread has been (PGlite runs on its event loop), for benches. */
  utilization(since?: EventLoopUtilization): EventLoopUtilization;
  /** Closes the database and ends the thread; the pool must be ended first. */
  close(): Promise<void>;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * PGlite's PostgreSQL (a WebAssembly module of 9 MB) compiled once for the whole process and
 * handed to every database thread it starts. A thread that compiles its own starts from V8's
 * baseline code and optimises the hot functions again, its own copy each time: five starts
 * from the test snapshot took 1.1 s of CPU each that way (after the first), 0.6 s with the
 * module handed over. The server starts one thread, and another after a crash; the tests
 * start dozens.
 */
export function compiledPglite(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return WebAssembly.compile(await readFile(new URL('pglite.wasm', pathToFileURL(entry))));
  })();
  return compiled;
}

export async function startPgliteThread(options: WorkerData): Promise<PgliteThread> {
  const data: WorkerData = {
    ...options,
    wasmModule: options.wasmModule ?? (await compiledPglite()),
  };
  const { dataDir } = data;
  const errorListeners = new Set<(err: Error) => void>();
  let current = await startWorker(data, (err) => {
    for (const listener of errorListeners) listener(err);
  });
  let restarting: Promise<void> | undefined;
  return {
    stream: () => current.stream(),
    onError: (listener) => errorListeners.add(listener),
    failed: () => current.failure !== undefined,
    restart() {
      if (current.failure === undefined) return Promise.resolve();
      if (dataDir === 'memory://')
        return Promise.reject(
          new Error('PGlite: o banco em memória terminou com a thread e não volta'),
        );
      const failed = current;
      restarting ??= failed.exited
        .then(() =>
          // With all the first was started with (its snapshot, if any, is for an in-memory
          // database, which never comes back).
          startWorker(data, (err) => {
            for (const listener of errorListeners) listener(err);
          }),
        )
        .then((next) => {
          current = next;
        })
        .finally(() => {
          restarting = undefined;
        });
      return restarting;
    },
    crash: () => current.crash(),
    dump: () => current.dump(),
    utilization: (since) => current.utilization(since),
    close: () => current.close(),
  };
}

/** One worker thread with its connections; a failed one is replaced by a new one. */
interface ThreadGeneration {
  failure: Error | undefined;
  /** Resolves when the thread has exited (a new one may then open the same folder). */
  exited: Promise<unknown>;
  stream(): Duplex;
  crash(): Promise<void>;
  dump(): Promise<Uint8Array>;
  utilization(since?: EventLoopUtilization): EventLoopUtilization;
  close(): Promise<void>;
}

async function startWorker(
  data: WorkerData,
  onFailure: (err: Error) => void,
): Promise<ThreadGeneration> {
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: data });
  const connections = new Map<number, Connection>();
  /** Connections lent out by the pool: while any is, the thread keeps the process alive. */
  const inUse = new Set<number>();
  let nextConn = 1;
  let closing = false;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const state: ThreadGeneration = {
    failure: undefined,
    exited,
    stream: () => new Connection(),
    async crash() {
      await worker.terminate();
    },
    dump() {
      if (state.failure) return Promise.reject(state.failure);
      return new Promise<Uint8Array>((resolve, reject) => {
        const onMessage = (message: FromWorker) => {
          if (message.type !== 'dumped') return;
          worker.off('message', onMessage);
          resolve(message.data);
        };
        worker.on('message', onMessage);
        void exited.then(() => reject(new Error('PGlite: a thread terminou antes da cópia')));
        post({ type: 'dump' });
      });
    },
    utilization: (since) => worker.performance.eventLoopUtilization(since),
    async close() {
      if (state.failure) return;
      closing = true;
      worker.ref();
      post({ type: 'close' });
      await exited;
    },
  };

  const post = (message: ToWorker, transfer: ArrayBuffer[] = []) =>
    worker.postMessage(message, transfer);
  const hold = (conn: number, on: boolean) => {
    if (on) inUse.add(conn);
    else inUse.delete(conn);
    if (inUse.size > 0 || closing) worker.ref();
    else worker.unref();
  };
  const fail = (err: Error) => {
    if (state.failure) return;
    state.failure = err;
    for (const connection of connections.values()) connection.destroy(err);
    // A thread that answered a failure may still hold the folder: it ends before another opens it.
    void worker.terminate();
    onFailure(err);
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
        if (state.failure) this.destroy(state.failure);
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
      if (state.failure) return done(state.failure);
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
      if (state.failure) return done(state.failure);
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
      if (!state.failure) post({ type: 'end', conn: this.conn });
    }
  }

  worker.on('message', (message: FromWorker) => {
    if (message.type === 'data')
      connections
        .get(message.conn)
        ?.receive(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.length));
    else if (message.type === 'failed') fail(new DatabaseUnavailable(`PGlite: ${message.message}`));
  });
  worker.on('error', (err) =>
    fail(new DatabaseUnavailable(`PGlite: ${err.message}`, { cause: err })),
  );
  worker.on('exit', (code) => {
    if (!closing) fail(new DatabaseUnavailable(`PGlite: a thread do banco terminou (${code})`));
  });

  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message.type !== 'ready') return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    void exited.then((code) => reject(new Error(`PGlite: a thread do banco terminou (${code})`)));
  });
  worker.unref();
  return state;
}
