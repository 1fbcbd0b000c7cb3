/**
 * The kinds of file the API takes in an upload (vehicle images, attachments), told by their
 * first bytes and never by the name or type the browser sent: a page renamed photo.jpg is not a
 * photo. Also the OpenAPI body of a multipart upload in the field `files`, the same for each.
 */
export const UPLOAD_KINDS = {
  'image/jpeg': {
    ext: ['jpg', 'jpeg'],
    test: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  'image/png': {
    ext: ['png'],
    test: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
  },
  'image/webp': {
    ext: ['webp'],
    test: (b: Buffer) =>
      b.subarray(0, 4).toString() === 'RIFF' && b.subarray(8, 12).toString() === 'WEBP',
  },
  // At the very start: a file that only contains '%PDF-' further on (an HTML page with a PDF
  // inside, a polyglot) is not one.
  'application/pdf': {
    ext: ['pdf'],
    test: (b: Buffer) => b.subarray(0, 5).toString() === '%PDF-',
  },
} as const;

export type UploadType = keyof typeof UPLOAD_KINDS;

/** The first of `allowed` whose signature the bytes carry, with its file extensions. */
export function sniffUpload<T extends UploadType>(
  bytes: Buffer,
  allowed: readonly T[],
): { type: T; ext: readonly string[] } | undefined {
  const type = allowed.find((t) => UPLOAD_KINDS[t].test(bytes));
  return type === undefined ? undefined : { type, ext: UPLOAD_KINDS[type].ext };
}

/** The request body of a multipart upload of one or more files in the field `files`. */
export const MULTIPART_FILES = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        properties: {
          files: { type: 'array' as const, items: { type: 'string' as const, format: 'binary' } },
        },
      },
    },
  },
};
