/**
 * A minimal PMTiles v3 writer for tests (no package writes them): a handful of raster tiles
 * in one archive, laid out as the specification says (github.com/protomaps/PMTiles, v3):
 * a 127-byte header, the root directory (uncompressed), JSON metadata, then the tile data.
 * Also a tiny PNG encoder, for solid-colour tiles whose pixels a journey can look for.
 */
import { deflateSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A solid-colour PNG (RGB, 8 bits), `size`×`size`, with an optional border of `line`. */
export function solidPng(
  [r, g, b]: [number, number, number],
  size = 256,
  line?: [number, number, number],
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rowOf = (edge: boolean) => {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x += 1)
      row.set(line && (edge || x < 2 || x >= size - 2) ? line : [r, g, b], 1 + x * 3);
    return row;
  };
  const pixels = Buffer.concat(
    Array.from({ length: size }, (_, y) => rowOf(y < 2 || y >= size - 2)),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}

export interface Tile {
  z: number;
  x: number;
  y: number;
  data: Buffer;
}

/** A PMTiles v3 archive of PNG tiles (every tile stored once, in tile-id order). */
export function pmtilesArchive(tiles: Tile[], name = 'rastro-teste'): Buffer {
  const entries = tiles
    .map((tile) => ({ id: zxyToTileId(tile.z, tile.x, tile.y), tile }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((entry) => {
    const at = offset;
    offset += entry.tile.data.length;
    return { ...entry, offset: at, length: entry.tile.data.length };
  });
  // Directory: count, tile-id deltas, run lengths, lengths, offsets (0: right after the last).
  const directory: number[] = [...varint(placed.length)];
  let last = 0;
  for (const e of placed) {
    directory.push(...varint(e.id - last));
    last = e.id;
  }
  for (const _ of placed) directory.push(...varint(1));
  for (const e of placed) directory.push(...varint(e.length));
  placed.forEach((e, i) => {
    const previous = placed[i - 1];
    directory.push(
      ...varint(previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1),
    );
  });
  const root = Buffer.from(directory);
  const metadata = Buffer.from(JSON.stringify({ name, format: 'png' }));
  const data = Buffer.concat(placed.map((e) => e.tile.data));
  const zooms = tiles.map((t) => t.z);

  const header = Buffer.alloc(127);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, 127);
  u64(16, root.length);
  u64(24, 127 + root.length);
  u64(32, metadata.length);
  u64(40, 0);
  u64(48, 0);
  u64(56, 127 + root.length + metadata.length);
  u64(64, data.length);
  u64(72, placed.length);
  u64(80, placed.length);
  u64(88, placed.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(2, 99); // tile type: PNG
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  header.writeInt32LE(-180e7, 102);
  header.writeInt32LE(-85e7, 106);
  header.writeInt32LE(180e7, 110);
  header.writeInt32LE(85e7, 114);
  header.writeUInt8(0, 118);
  header.writeInt32LE(0, 119);
  header.writeInt32LE(0, 123);
  return Buffer.concat([header, root, metadata, data]);
}

/** Every tile of zooms 0 to `maxZoom`, all of one colour (with a border of `line`). */
export function solidArchive(
  color: [number, number, number],
  maxZoom = 2,
  line?: [number, number, number],
): Buffer {
  const png = solidPng(color, 256, line);
  const tiles: Tile[] = [];
  for (let z = 0; z <= maxZoom; z += 1)
    for (let x = 0; x < 2 ** z; x += 1)
      for (let y = 0; y < 2 ** z; y += 1) tiles.push({ z, x, y, data: png });
  return pmtilesArchive(tiles);
}
