/** Placeholder: replaced by the teltonika codec. */
import { type Codec, CodecError } from './codec';

export const teltonika: Codec = {
  protocol: 'teltonika',
  name: 'teltonika',
  frame: (buffer) => (buffer.length ? { skip: buffer.length } : undefined),
  decode: () => {
    throw new CodecError('not written yet');
  },
  encodeCommand: () => undefined,
};
