/** The makers' protocols Rastro hears natively, each on its own listener (listener.ts). */
import type { Codec } from './codec';
import { gt06 } from './gt06';
import { queclink } from './queclink';
import { suntech } from './suntech';
import { teltonika } from './teltonika';

export type NativeProtocol = 'gt06' | 'suntech' | 'teltonika' | 'queclink';

export const CODECS: Record<NativeProtocol, Codec> = { gt06, suntech, teltonika, queclink };

/** GT06 devices speak TCP only; the others also UDP, on the same port number. */
export const SPEAKS_UDP: Record<NativeProtocol, boolean> = {
  gt06: false,
  suntech: true,
  teltonika: true,
  queclink: true,
};
