/** Placeholder: replaced by the suntech codec. */
import { type Codec, CodecError } from './codec';

export const suntech: Codec = {
  protocol: 'suntech',
  name: 'suntech',
  frame: (buffer) => (buffer.length ? { skip: buffer.length } : undefined),
  decode: () => {
    throw new CodecError('not written yet');
  },
  encodeCommand: () => undefined,
};
