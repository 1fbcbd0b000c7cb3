/**
 * Writes the map pictogram of every vehicle type (public/markers/{type}.svg) from the
 * drawings in scripts/pictograms.ts: upright side views the map sets inside a badge ringed in
 * the vehicle's state colour, with a separate heading arrow. Run with
 * `npx tsx scripts/make-markers.ts`; a contact sheet of all of them goes to
 * .tmp/markers.html for a look.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { VEHICLE_TYPES } from '../src/contract/vehicle-types';
import { PICTOGRAMS, pictogramSvg } from './pictograms';

mkdirSync('public/markers', { recursive: true });
const missing = VEHICLE_TYPES.filter(([type]) => !PICTOGRAMS[type]).map(([type]) => type);
if (missing.length) throw new Error(`sem pictograma: ${missing.join(', ')}`);
for (const [type, label] of VEHICLE_TYPES)
  writeFileSync(`public/markers/${type}.svg`, pictogramSvg(type, label));

mkdirSync('.tmp', { recursive: true });
const cell = (type: string, label: string, size: number) =>
  `<figure><span style="width:${size + 12}px;height:${size + 12}px"><img src="../public/markers/${type}.svg" width="${size}" height="${size}" alt=""></span><figcaption>${label}</figcaption></figure>`;
writeFileSync(
  '.tmp/markers.html',
  `<!doctype html><meta charset="utf-8"><style>
body{font:12px system-ui;display:flex;flex-wrap:wrap;gap:10px;padding:12px;background:#e8eef3}
figure{margin:0;width:96px;text-align:center}
span{display:inline-grid;place-items:center;border-radius:50%;background:#fff;border:3px solid #1b7f3b}
.big span{border-radius:8px;border:1px solid #ccc}
</style><h1 style="width:100%">22 px, como no mapa</h1>${VEHICLE_TYPES.map(([t, l]) => cell(t, l, 22)).join('')}<h1 style="width:100%">64 px</h1><div class="big" style="display:contents">${VEHICLE_TYPES.map(([t, l]) => cell(t, l, 64)).join('')}</div>`,
);
console.log(`${VEHICLE_TYPES.length} pictogramas gravados em public/markers`);
