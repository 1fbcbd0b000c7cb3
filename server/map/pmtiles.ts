/**
 * What the server needs to know of a PMTiles (v3) archive it serves: the kind of tiles (so
 * that the PWA draws them as images or as vector data), the zoom range and where it covers.
 * Only the fixed 127-byte header is read (spec: github.com/protomaps/PMTiles, v3).
 */
import { open } from 'node:fs/promises';

export const PMTILES_HEADER_BYTES = 127;

const TILE_TYPES: Record<number, 'vector' | 'png' | 'jpeg' | 'webp' | 'avif'> = {
  1: 'vector',
  2: 'png',
  3: 'jpeg',
  4: 'webp',
  5: 'avif',
};

export interface PmtilesHeader {
  tiles: 'vector' | 'raster';
  format: 'vector' | 'png' | 'jpeg' | 'webp' | 'avif';
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center: { longitude: number; latitude: number; zoom: number };
}

export function parsePmtilesHeader(bytes: Buffer): PmtilesHeader {
  if (bytes.length < PMTILES_HEADER_BYTES || bytes.subarray(0, 7).toString('ascii') !== 'PMTiles')
    throw new Error('não é um arquivo PMTiles');
  if (bytes[7] !== 3) throw new Error(`PMTiles versão ${bytes[7]} não suportada (use a versão 3)`);
  const format = TILE_TYPES[bytes.readUInt8(99)];
  if (!format) throw new Error('PMTiles com tipo de tile desconhecido');
  const degrees = (at: number) => bytes.readInt32LE(at) / 1e7;
  return {
    tiles: format === 'vector' ? 'vector' : 'raster',
    format,
    minZoom: bytes.readUInt8(100),
    maxZoom: bytes.readUInt8(101),
    bounds: [degrees(102), degrees(106), degrees(110), degrees(114)],
    center: { zoom: bytes.readUInt8(118), longitude: degrees(119), latitude: degrees(123) },
  };
}

export async function readPmtilesHeader(file: string): Promise<PmtilesHeader> {
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(PMTILES_HEADER_BYTES);
    await handle.read(bytes, 0, PMTILES_HEADER_BYTES, 0);
    return parsePmtilesHeader(bytes);
  } finally {
    await handle.close();
  }
}
