/**
 * A photo from the phone's camera made small enough to send over a weak connection and to keep
 * offline: at most 1280 px on its longest side, JPEG, lowering the quality until it fits.
 */
const LONGEST_SIDE = 1280;

export async function shrinkPhoto(file: Blob, maxBytes: number): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  for (const quality of [0.8, 0.65, 0.5, 0.35]) {
    const dataUrl = canvas.toDataURL('image/jpeg', quality);
    // Base64 carries 3 bytes in 4 characters.
    if ((dataUrl.length - dataUrl.indexOf(',') - 1) * 0.75 <= maxBytes) return dataUrl;
  }
  throw new Error('photo too big');
}
