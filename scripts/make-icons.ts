/**
 * Draws Rastro's app icons (a white map pin on the brand blue) as PNGs for the web app
 * manifest: 192 and 512 "any", 512 "maskable" (full bleed, pin inside the safe zone) and
 * the 180 px Apple touch icon. Run with `npx tsx scripts/make-icons.ts`; the output is
 * committed under public/icons.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BLUE = [11, 92, 173];
const WHITE = [255, 255, 255];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size: number, pixel: (x: number, y: number) => number[]): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r = 0, g = 0, b = 0, a = 0] = pixel(x, y);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Pin in unit coordinates: a round head with a hole and a pointed tail. */
function inPin(u: number, v: number): boolean {
  const dx = u - 0.5;
  const dy = v - 0.42;
  const head = dx * dx + dy * dy <= 0.22 * 0.22;
  const hole = dx * dx + dy * dy <= 0.085 * 0.085;
  const t = (v - 0.5) / (0.86 - 0.5);
  const tail = t >= 0 && t <= 1 && Math.abs(dx) <= 0.19 * (1 - t);
  return (head || tail) && !hole;
}

function inRoundedSquare(u: number, v: number, radius: number): boolean {
  const cx = Math.min(Math.max(u, radius), 1 - radius);
  const cy = Math.min(Math.max(v, radius), 1 - radius);
  return (u - cx) ** 2 + (v - cy) ** 2 <= radius * radius;
}

function icon(size: number, maskable: boolean): Buffer {
  const samples = 4;
  return png(size, (x, y) => {
    let bg = 0;
    let fg = 0;
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const u = (x + (sx + 0.5) / samples) / size;
        const v = (y + (sy + 0.5) / samples) / size;
        const inside = maskable || inRoundedSquare(u, v, 0.2);
        if (!inside) continue;
        bg++;
        const scale = maskable ? 0.72 : 0.92;
        if (inPin((u - 0.5) / scale + 0.5, (v - 0.5) / scale + 0.5)) fg++;
      }
    }
    const total = samples * samples;
    const alpha = bg / total;
    const mix = bg ? fg / bg : 0;
    const rgb = BLUE.map((c, i) => Math.round(c * (1 - mix) + (WHITE[i] ?? 0) * mix));
    return [...rgb, Math.round(alpha * 255)];
  });
}

const out = 'public/icons';
writeFileSync(`${out}/icon-192.png`, icon(192, false));
writeFileSync(`${out}/icon-512.png`, icon(512, false));
writeFileSync(`${out}/maskable-512.png`, icon(512, true));
writeFileSync(`${out}/apple-touch-icon.png`, icon(180, true));
console.log('icons written to', out);
