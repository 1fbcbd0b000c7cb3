/** Placeholder: replaced by the gt06 codec. */
import { type Codec, CodecError } from './codec';

export const gt06: Codec = {
  protocol: 'gt06',
  name: 'gt06',
  frame: (buffer) => (buffer.length ? { skip: buffer.length } : undefined),
  decode: () => {
    throw new CodecError('not written yet');
  },
  encodeCommand: () => undefined,
};
