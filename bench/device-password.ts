/** The device password of every bench tracker: bench devices prove it, as real ones do. */
export const BENCH_DEVICE_PASSWORD = 'senha-da-carga-1';
