/**
 * The part of WebAssembly's API the server uses (compiledPglite in pglite-thread.ts). Node has
 * all of it; TypeScript declares it only in its DOM and web worker libraries, which the
 * server's type-check leaves out so that no browser API passes it by mistake.
 */
declare namespace WebAssembly {
  /** A compiled module: the server only hands it on, to PGlite. */
  interface Module {
    readonly [Symbol.toStringTag]: string;
  }
  function compile(bytes: Uint8Array): Promise<Module>;
}
