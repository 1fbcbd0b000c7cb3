// @ts-check
/**
 * The thread that owns the embedded PGlite database, speaking PostgreSQL's wire protocol.
 * PGlite runs PostgreSQL compiled to WebAssembly on whatever thread calls it: on the server's
 * own thread a month-long report stopped ingest, the API and the live stream until it ended.
 * Here it runs beside them. The server's thread reaches it with node-postgres through an
 * in-memory stream (pglite-thread.ts), exactly as it reaches a PostgreSQL server through a
 * socket: one driver, one set of types and errors for both databases.
 *
 * Bytes from the other side are cut into protocol messages and fed to PGlite one at a time
 * (it is one backend: a queue keeps them in order); what PGlite answers goes back as is.
 * Plain JavaScript on purpose, type-checked through JSDoc: a worker thread starts without
 * the TypeScript loader of its parent (tsx, or vitest's), and this file needs none.
 */
import { fdatasyncSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @typedef {import('./pglite-thread').ToWorker} ToWorker */
/** @typedef {import('./pglite-thread').FromWorker} FromWorker */

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs only as a worker thread');
const { dataDir, snapshot, sharedBuffers, wasmModule } =
  /** @type {import('./pglite-thread').WorkerData} */ (workerData);

const SSL_REQUEST = 80_877_103;
const CANCEL_REQUEST = 80_877_102;
const PROTOCOL_3 = 196_608;
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
/** A large answer travels in parts of this size; the other side parses one per turn. */
const PART = 256 * 1024;

/** @param {FromWorker} message @param {ArrayBuffer[]} [transfer] */
const send = (message, transfer) => port.postMessage(message, transfer ?? []);

/**
 * Durability: PGlite starts PostgreSQL with fsync off (`-F`), and its file system (Emscripten's
 * NODEFS) has no fsync of its own, so a power cut could lose commits already acknowledged to
 * devices. On a folder it runs with fsync on, the WAL flushed by fsync (PGlite's fdatasync is a
 * no-op, its fsync reaches the file system) and that fsync made a real one: one flush per
 * commit, which the ingest's group commit shares among every fix of a batch (measured in
 * bench/ingest.ts and docs/deployment.md). An in-memory database has nothing to flush.
 */
const DURABLE_EXTRA = ['-c', 'wal_sync_method=fsync'];
const durable = dataDir !== 'memory://';
const defaults = /** @type {{ defaultStartParams?: string[] }} */ (/** @type {unknown} */ (PGlite))
  .defaultStartParams;
/**
 * PostgreSQL sets up its whole page cache at every start: with its default of 128MB that was
 * about 1.9 s of CPU per start of a database copied from a snapshot here, against 1.45 s with
 * 16MB (six starts each, in worker threads as the server starts them).
 */
const cache = sharedBuffers ? ['-c', `shared_buffers=${sharedBuffers}`] : [];
if ((durable || cache.length > 0) && !defaults)
  throw new Error('PGlite: its default start parameters are unknown');
const base = defaults ?? [];
const startParams = durable
  ? [...base.filter((param) => param !== '-F'), ...DURABLE_EXTRA, ...cache]
  : [...base, ...cache];
const db = await PGlite.create(dataDir, {
  // PGlite's own defaults when nothing is added to them.
  ...(durable || cache.length > 0 ? { startParams } : {}),
  ...(!durable && snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {}),
  // Compiled once by the process (compiledPglite in pglite-thread.ts).
  ...(wasmModule ? { pgliteWasmModule: wasmModule } : {}),
});
if (durable) flushToDisk(db);

/**
 * Makes the fsync PostgreSQL asks of a file a real one (see DURABLE_EXTRA). A failed flush is
 * an I/O error for PostgreSQL, which stops rather than go on as if the data were safe.
 * @param {PGlite} pglite
 */
function flushToDisk(pglite) {
  const fs = pglite.Module.FS;
  const ops = fs.lookupPath(fs.cwd()).node.stream_ops;
  /** @param {{ nfd?: number }} stream */
  ops.fsync = (stream) => {
    if (stream.nfd === undefined) return 0;
    try {
      fdatasyncSync(stream.nfd);
      return 0;
    } catch (err) {
      const code = /** @type {{ code?: string }} */ (err).code;
      // A directory or a special file that cannot be flushed is nothing lost.
      if (code === 'EINVAL' || code === 'EISDIR' || code === 'EBADF') return 0;
      return 29; // EIO
    }
  };
}

/** Bytes of each connection that do not make a whole message yet. */
/** @type {Map<number, Buffer>} */
const pending = new Map();
/** Every piece of work on the database, in the order it arrived. */
/** @type {Promise<unknown>} */
let queue = Promise.resolve();
/** @param {() => Promise<unknown>} work */
const enqueue = (work) => {
  queue = queue.then(work).catch((err) => send({ type: 'failed', message: String(err) }));
};

/**
 * What PGlite answered a connection and is not sent yet. PGlite hands its answer over in
 * many small pieces (a row, a message), and each message to the other thread has a cost of
 * its own: they travel together, when the messages that arrived together have all run (see
 * `port.on('message')`) or when a part is full.
 */
/** @type {Map<number, { parts: Uint8Array[]; size: number }>} */
const unsent = new Map();

/**
 * @param {number} conn
 * @param {Uint8Array} data
 */
function answer(conn, data) {
  let out = unsent.get(conn);
  if (!out) {
    out = { parts: [], size: 0 };
    unsent.set(conn, out);
  }
  out.parts.push(data.slice());
  out.size += data.length;
  if (out.size >= PART) flush(conn);
}

/** Sends what is waiting for `conn`, in parts of at most PART bytes. */
function flush(/** @type {number} */ conn) {
  const out = unsent.get(conn);
  if (!out || out.size === 0) return;
  unsent.delete(conn);
  // A fresh buffer of its own (not Node's shared pool): it is handed over, not copied.
  const all = new Uint8Array(out.size);
  let offset = 0;
  for (const piece of out.parts) {
    all.set(piece, offset);
    offset += piece.length;
  }
  if (all.length <= PART) {
    send({ type: 'data', conn, data: all }, [all.buffer]);
    return;
  }
  for (let at = 0; at < all.length; at += PART) {
    const part = all.slice(at, at + PART);
    send({ type: 'data', conn, data: part }, [part.buffer]);
  }
}

/** Connections past their startup message: from then on every message has a type byte. */
/** @type {Set<number>} */
const started = new Set();

/**
 * The whole messages at the start of a connection's bytes, and the bytes left over.
 * @param {number} conn
 * @param {Buffer} buffer
 */
function split(conn, buffer) {
  /** @type {Buffer[]} */
  const messages = [];
  let at = 0;
  while (!started.has(conn) && buffer.length - at >= 8) {
    // The SSL request and the startup message have no type byte: a length, then a code.
    const length = buffer.readInt32BE(at);
    if (buffer.length - at < length) break;
    if (buffer.readInt32BE(at + 4) === PROTOCOL_3) started.add(conn);
    messages.push(buffer.subarray(at, at + length));
    at += length;
  }
  while (started.has(conn) && buffer.length - at >= 5) {
    const length = 1 + buffer.readInt32BE(at + 1);
    if (buffer.length - at < length) break;
    messages.push(buffer.subarray(at, at + length));
    at += length;
  }
  return { messages, rest: Buffer.from(buffer.subarray(at)) };
}

/**
 * @param {number} conn
 * @param {Buffer} message
 */
async function run(conn, message) {
  if (message.length === 8 && message.readInt32BE(4) === SSL_REQUEST) {
    answer(conn, new Uint8Array([0x4e])); // 'N': no TLS between two threads
    return;
  }
  // A statement running in PGlite cannot be interrupted: a cancel request is dropped.
  if (message.length === 16 && message.readInt32BE(4) === CANCEL_REQUEST) return;
  const kind = message[0];
  await db.runExclusive(() =>
    db.execProtocolRawStream(new Uint8Array(message), {
      // Written to the data folder when a statement cycle ends, as PGlite's query() does.
      syncToFs: kind === SYNC || kind === QUERY,
      onRawData: (data) => answer(conn, data),
    }),
  );
}

port.on('message', (/** @type {ToWorker} */ message) => {
  switch (message.type) {
    case 'data': {
      const { conn } = message;
      const bytes = Buffer.concat([pending.get(conn) ?? Buffer.alloc(0), message.data]);
      const { messages, rest } = split(conn, bytes);
      pending.set(conn, rest);
      enqueue(async () => {
        try {
          for (const one of messages) await run(conn, one);
        } finally {
          flush(conn);
        }
      });
      return;
    }
    case 'end':
      pending.delete(message.conn);
      started.delete(message.conn);
      unsent.delete(message.conn);
      // A connection that went away inside a transaction leaves none open for the next.
      enqueue(async () => {
        if (db.isInTransaction()) await db.exec('rollback');
      });
      return;
    case 'dump':
      // Queued like a statement, so the copy falls between two, never inside one.
      enqueue(async () => {
        const tarball = await db.dumpDataDir('none');
        const data = new Uint8Array(await tarball.arrayBuffer());
        send({ type: 'dumped', data }, [data.buffer]);
      });
      return;
    case 'close':
      enqueue(async () => {
        await db.close();
        send({ type: 'closed' });
        port.close();
      });
      return;
  }
});

send({ type: 'ready' });
