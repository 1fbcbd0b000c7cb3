/** Placeholder: replaced by the queclink codec. */
import { type Codec, CodecError } from './codec';

export const queclink: Codec = {
  protocol: 'queclink',
  name: 'queclink',
  frame: (buffer) => (buffer.length ? { skip: buffer.length } : undefined),
  decode: () => {
    throw new CodecError('not written yet');
  },
  encodeCommand: () => undefined,
};
