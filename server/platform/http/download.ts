/** A file on disk answered as a download, streamed rather than read into memory. */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/** Content-Disposition of a download (the files' names are plain ASCII). */
export const disposition = (name: string) => `attachment; filename="${name}"`;

/**
 * The file as the answer, with its type, size and name. `onClose` runs when the stream is done
 * with it, sent or abandoned (a rendered file that is removed then).
 */
export function download(
  file: { path: string; mime: string; size: number; name: string },
  onClose?: () => void,
): Response {
  const stream = createReadStream(file.path);
  if (onClose) stream.once('close', onClose);
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    status: 200,
    headers: {
      'content-type': file.mime,
      'content-length': String(file.size),
      'content-disposition': disposition(file.name),
    },
  });
}
