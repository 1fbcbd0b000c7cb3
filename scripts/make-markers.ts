/**
 * Draws the map marker of every vehicle type (public/markers/{type}.svg): a round badge with
 * a pointer at the top (the map rotates it by course), coloured by family, with a short
 * pt-BR abbreviation of the type. Run with `npx tsx scripts/make-markers.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { VEHICLE_TYPES } from '../src/contract/vehicle-types';

const FAMILIES: [RegExp, string][] = [
  [/truck|tractor_unit|trailer|tank|mixer|tow|garbage|dump|refrigerated/, '#7a4b00'],
  [/bus|minibus|van|taxi/, '#0b5cad'],
  [/car|pickup|suv|police|ambulance|fire/, '#1565c0'],
  [/motorcycle|scooter|bicycle|quad/, '#6a1b9a'],
  [/tractor|harvester|sprayer/, '#2e7d32'],
  [
    /excavator|backhoe|bulldozer|loader|grader|roller|crane|forklift|telehandler|generator/,
    '#e65100',
  ],
  [/boat|jet_ski|ship/, '#00838f'],
  [/helicopter|airplane|drone/, '#37474f'],
  [/train|motorhome|container/, '#5d4037'],
  [/person|animal/, '#ad1457'],
];

function colour(type: string): string {
  return FAMILIES.find(([pattern]) => pattern.test(type))?.[1] ?? '#455a64';
}

function abbreviation(label: string): string {
  const words = label
    .replace(/\(.*\)/, '')
    .split(/[\s/-]+/)
    .filter((w) => w.length > 2 || /^[A-Z]/.test(w));
  const letters =
    words.length > 1
      ? `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}`
      : (words[0] ?? label).slice(0, 2);
  return letters.toUpperCase();
}

function marker(type: string, label: string): string {
  const fill = colour(type);
  const text = type === 'default' ? '•' : abbreviation(label);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" width="48" height="48" role="img" aria-label="${label}">
  <path d="M24 2 31 11H17Z" fill="${fill}" stroke="#fff" stroke-width="1.5" stroke-linejoin="round"/>
  <circle cx="24" cy="27" r="17" fill="${fill}" stroke="#fff" stroke-width="3"/>
  <text x="24" y="32.5" text-anchor="middle" font-family="system-ui, sans-serif" font-size="14" font-weight="700" fill="#fff">${text}</text>
</svg>
`;
}

mkdirSync('public/markers', { recursive: true });
for (const [type, label] of VEHICLE_TYPES)
  writeFileSync(`public/markers/${type}.svg`, marker(type, label));
console.log(`${VEHICLE_TYPES.length} markers written to public/markers`);
