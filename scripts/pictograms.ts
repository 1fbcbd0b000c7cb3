/**
 * The pictogram of every vehicle type, drawn by hand on a 32 × 32 grid: side views facing
 * right, one dark ink with white cut-outs (windows, hubs) and a touch of colour where it tells
 * the vehicle apart (the ambulance's cross, the police car's lights, the taxi's sign). They sit
 * upright inside the map's badge, so they read at 22 px. scripts/make-markers.ts writes them.
 */

export const INK = '#1f2328';
const W = '#ffffff';
const RED = '#c62828';
const BLUE = '#1565c0';
const AMBER = '#f2a900';

const path = (d: string, fill = INK) => `<path d="${d}" fill="${fill}"/>`;
const stroke = (d: string, width = 2, color = INK) =>
  `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;
const rect = (x: number, y: number, w: number, h: number, fill = INK, r = 0) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="${fill}"/>`;
const circle = (cx: number, cy: number, r: number, fill = INK) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`;
/** A tyre with a white rim line and hub, so wheels stand out from the body. */
const wheel = (cx: number, cy: number, r = 3) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${INK}" stroke="${W}" stroke-width="1.1"/>${circle(cx, cy, r * 0.38, W)}`;
/** A thin spoked wheel (bicycles). */
const ring = (cx: number, cy: number, r: number, width = 2) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${INK}" stroke-width="${width}"/>${circle(cx, cy, 1)}`;

const sedan = () =>
  path(
    'M2 22.5V18.6c0-1.2.8-2 2-2.3l5-1.1 3.6-4.1c.7-.8 1.6-1.1 2.6-1.1h6.2c1 0 1.9.4 2.5 1.2l3.2 4 2.6.6c1.3.3 2.3 1.3 2.3 2.7v4Z',
  ) +
  path('M13.6 11.9h3.7v3.4h-6.6Z', W) +
  path('M18.9 11.9h2.3c.5 0 .9.2 1.2.6l2.2 2.8h-5.7Z', W) +
  wheel(8.5, 23) +
  wheel(24, 23);

const boxCab = (x: number) =>
  path(`M${x} 21.5V11c0-.6.4-1 1-1h4.3c.5 0 .9.2 1.2.6l2.6 4.1c.2.3.4.7.4 1.1v5.7Z`) +
  path(`M${x + 1.5} 11.5h3.4l2.4 3.8h-5.8Z`, W);

const truckBody = (box: string, wheels: [number, number][], cabX = 21.6) =>
  box +
  boxCab(cabX) +
  rect(1.5, 20.6, 29, 2, INK) +
  wheels.map(([x, y]) => wheel(x, y, 2.8)).join('');

const snowflake = (cx: number, cy: number) =>
  [0, 60, 120]
    .map((deg) => {
      const a = (deg * Math.PI) / 180;
      const dx = (Math.cos(a) * 3.4).toFixed(2);
      const dy = (Math.sin(a) * 3.4).toFixed(2);
      return stroke(
        `M${cx - Number(dx)} ${cy - Number(dy)}L${cx + Number(dx)} ${cy + Number(dy)}`,
        1.3,
        W,
      );
    })
    .join('');

const van = () =>
  path('M2 22.5V9c0-1.1.9-2 2-2h16.8c.7 0 1.3.3 1.7.8l5.7 7c1.1.3 1.8 1.2 1.8 2.3v5.4Z') +
  path('M22 9.2l4.8 5.6H22Z', W) +
  rect(4.5, 9.2, 6, 4.6, W, 0.6) +
  rect(12, 9.2, 8, 4.6, W, 0.6) +
  wheel(8, 23) +
  wheel(24.2, 23);

const carWith = (extra: string) => sedan() + extra;

export const PICTOGRAMS: Record<string, string> = {
  car: sedan(),
  police_car: carWith(rect(13.6, 7.6, 3, 2, RED, 0.6) + rect(16.8, 7.6, 3, 2, BLUE, 0.6)),
  taxi: carWith(rect(14.2, 6.8, 5.6, 2.6, AMBER, 0.8)),
  pickup:
    path(
      'M2 22.5v-7.3c0-.7.5-1.2 1.2-1.2h11.1l1.4-3.9c.3-.8 1-1.3 1.8-1.3h5.4c.7 0 1.3.4 1.7 1l2.9 4.7 2 .6c.9.3 1.5 1.1 1.5 2.1v4.1Z',
    ) +
    path('M17.4 11.8h5.2l2.5 4.1h-9Z', W) +
    stroke('M14.6 14.6v4', 1, W) +
    wheel(7.6, 23) +
    wheel(25, 23),
  suv:
    path(
      'M2 22.5v-6.9c0-1 .7-1.8 1.7-1.9l3.6-.3 2.4-4.2c.4-.8 1.2-1.2 2-1.2h12.4c.8 0 1.6.4 2 1.2l2.3 4.4c1.5.4 2.6 1.6 2.6 3.1v5.8Z',
    ) +
    path('M11 9.7h5.3v3.8H8.8Z', W) +
    path('M17.8 9.7h5.8c.4 0 .7.2.9.6l1.6 3.2h-8.3Z', W) +
    wheel(8.5, 23, 3.3) +
    wheel(24, 23, 3.3),
  van: van(),
  ambulance:
    van().replace(rect(12, 9.2, 8, 4.6, W, 0.6), '') +
    rect(11.2, 12.6, 9, 9, W, 1) +
    rect(14.6, 13.8, 2.2, 6.6, RED) +
    rect(12.4, 16, 6.6, 2.2, RED),
  minibus:
    path('M1.5 22.5V8.5C1.5 7.7 2.2 7 3 7h21.8c.6 0 1.1.3 1.4.8l3.9 5.7c.2.3.4.8.4 1.2v7.8Z') +
    [3.5, 9, 14.5, 20].map((x) => rect(x, 9, 4.5, 4.5, W, 0.6)).join('') +
    path('M25.5 9l3 4.5h-3Z', W) +
    wheel(7, 23) +
    wheel(25, 23),
  bus:
    rect(1.5, 5, 29, 17.5, INK, 2) +
    [3.5, 9.3, 15.1].map((x) => rect(x, 7.5, 4.6, 5.5, W, 0.6)).join('') +
    rect(20.9, 7.5, 4.2, 5.5, W, 0.6) +
    rect(26.6, 7.5, 2.6, 8.5, W, 0.6) +
    rect(21.4, 14.4, 3.2, 6.4, W, 0.4) +
    wheel(7.5, 23) +
    wheel(24.5, 23),
  truck: truckBody(rect(1.5, 5.5, 19, 15.5, INK, 1), [
    [6, 23.6],
    [11.2, 23.6],
    [25.6, 23.6],
  ]),
  light_truck: truckBody(rect(3.5, 9, 17, 12, INK, 1), [
    [8.5, 23.6],
    [25.6, 23.6],
  ]).replace(rect(1.5, 20.6, 29, 2, INK), rect(3.5, 20.6, 27, 2, INK)),
  refrigerated_truck:
    truckBody(rect(1.5, 5.5, 19, 15.5, INK, 1), [
      [6, 23.6],
      [11.2, 23.6],
      [25.6, 23.6],
    ]) +
    rect(17.6, 3.2, 3, 4, INK, 0.6) +
    snowflake(10.5, 13),
  garbage_truck:
    truckBody(path('M1.5 21V9.5c0-2.2 1.8-4 4-4h15V21Z') + rect(4, 12.2, 14, 1.6, W, 0.5), [
      [6, 23.6],
      [11.2, 23.6],
      [25.6, 23.6],
    ]) + stroke('M2 9.5 4.5 7', 1.4, W),
  tank_truck:
    truckBody(rect(1.5, 8, 19.5, 12, INK, 6), [
      [6, 23.6],
      [11.2, 23.6],
      [25.6, 23.6],
    ]) + rect(4.5, 12.8, 13.5, 1.5, W, 0.7),
  dump_truck: truckBody(path('M1.5 19.5 3.6 7.5h17.3v12Z') + stroke('M4.5 10.5h14', 1.3, W), [
    [6, 23.6],
    [11.2, 23.6],
    [25.6, 23.6],
  ]),
  concrete_mixer: truckBody(
    path(
      'M2.5 16.5c-.6-4.9 3-8.2 8.4-8.4l8.8 1.9c1.4 2.7 1.4 5.5 0 8.2l-8.8 1.9c-4.6-.1-7.9-1.2-8.4-3.6Z',
    ) + stroke('M8.3 9.3 12 19.4M13.3 9.5 16.4 18.6', 1.3, W),
    [
      [6, 23.6],
      [11.2, 23.6],
      [25.6, 23.6],
    ],
  ),
  tow_truck:
    boxCab(21.6) +
    rect(1.5, 17.5, 29, 3.6, INK, 0.8) +
    stroke('M8 17.5 4 7.5', 2.4) +
    stroke('M4 7.5v5.5c0 1.4-2 1.4-2 0', 1.6) +
    wheel(6.5, 23.6, 2.8) +
    wheel(25.6, 23.6, 2.8),
  fire_truck:
    truckBody(rect(1.5, 8.5, 19, 12.5, INK, 1), [
      [6, 23.6],
      [11.2, 23.6],
      [25.6, 23.6],
    ]) +
    rect(1.5, 5, 19, 2.5, INK, 0.6) +
    [3.5, 6.5, 9.5, 12.5, 15.5, 18.5].map((x) => rect(x, 5.6, 0.9, 1.3, W)).join('') +
    rect(23, 8, 4, 1.6, RED, 0.5),
  tractor_unit:
    path('M14.5 21V7c0-.8.7-1.5 1.5-1.5h8.6c.6 0 1.2.4 1.4.9l3.5 8c.3.6.5 1.3.5 2V21Z') +
    path('M16.5 7.5h7.3l3.1 6.6H16.5Z', W) +
    rect(2.5, 19.2, 28, 2.5, INK, 0.6) +
    rect(4.5, 16.8, 7.5, 2, INK, 0.6) +
    wheel(6.5, 23.6, 2.8) +
    wheel(12, 23.6, 2.8) +
    wheel(25.6, 23.6, 2.8),
  semi_trailer:
    rect(1.5, 5.5, 28.5, 14.5, INK, 1) +
    rect(3, 19.5, 11, 2, INK) +
    rect(23.5, 19.5, 1.6, 5.5, INK, 0.4) +
    rect(22, 24.4, 4.6, 1.4, INK, 0.4) +
    wheel(5.5, 23.6, 2.8) +
    wheel(11, 23.6, 2.8),
  trailer:
    rect(2, 8.5, 20, 12, INK, 1) +
    stroke('M21.5 17.5 30 20', 2) +
    circle(30, 20, 1.4) +
    wheel(12, 23, 3.2),
  motorcycle:
    wheel(7, 22, 4.3) +
    wheel(25, 22, 4.3) +
    stroke('M25 22 22.3 11.5h2.7', 2.2) +
    path('M5.5 15.6h7.2l2.2-3.1h6.8l2.4 4.6-3.4 3.9h-8.9l-3.3-2.6Z') +
    circle(15.5, 19.3, 2, W),
  scooter:
    wheel(7, 23, 3.5) +
    wheel(25, 23, 3.5) +
    path('M3.5 20.5c0-3 2.2-5 5.2-5H15c2 0 3.3 1.5 3.5 3.5l.3 1.5h4.7L21 9.5h2.5l3 11Z') +
    rect(7, 12.5, 7.5, 2.5, INK, 1.2) +
    stroke('M21 9.5h3.8', 2),
  bicycle:
    ring(8, 21, 5) +
    ring(24, 21, 5) +
    stroke('M8 21h6.5l6-9H11.5L8 21M14.5 21 11 9.5M24 21l-3.2-11h3', 1.9) +
    stroke('M9 9.5h4.5', 2.2),
  quad:
    wheel(7.5, 22.5, 4.2) +
    wheel(24.5, 22.5, 4.2) +
    path('M3.5 18.3v-1c0-2 1.6-3.6 3.6-3.6H15l2-2.7h4.3l2.4 2.7h3.2c1.6 0 2.7 1.2 2.7 2.7v1.9Z') +
    stroke('M20.5 11 22 7.5h3', 1.8),
  tractor:
    wheel(9, 20.2, 7) +
    wheel(25, 23.3, 4) +
    path('M14.5 19.5V13.5h13.7c.8 0 1.4.6 1.4 1.4v4.6Z') +
    stroke('M5.5 13V5h10.5v8.5', 1.8) +
    rect(4.5, 3.5, 12.5, 2, INK, 0.8) +
    rect(6.8, 6.4, 7.9, 6, W, 0.4) +
    stroke('M22 13.5V8', 1.8),
  harvester:
    path('M2 20.5V9c0-1.1.9-2 2-2h13.5v5.5H23v8Z') +
    rect(16.5, 2.5, 7.5, 9, INK, 1) +
    rect(18, 4, 4.5, 4.5, W, 0.5) +
    rect(23.5, 14.5, 7, 7, INK, 0.8) +
    stroke('M24.5 16.5h5M24.5 19h5', 1.1, W) +
    wheel(7.5, 22.2, 4.6) +
    wheel(19, 23.6, 3),
  sprayer:
    rect(6.5, 10, 15, 7, INK, 3.5) +
    rect(20, 4, 7.5, 12, INK, 1) +
    rect(21.5, 5.5, 4.5, 4.5, W, 0.5) +
    rect(1.5, 17.2, 29, 1.6, INK, 0.8) +
    [3, 7, 11, 15, 19, 23, 27].map((x) => rect(x, 18.8, 0.9, 1.4, INK)).join('') +
    wheel(10, 23.5, 3.6) +
    wheel(24.5, 23.5, 3.6),
  excavator:
    rect(2, 21, 18, 5, INK, 2.5) +
    [5, 9, 13, 17].map((x) => circle(x, 23.5, 1, W)).join('') +
    rect(3.5, 14, 14, 6.2, INK, 1) +
    rect(11.5, 8.5, 6, 6, INK, 0.8) +
    rect(13, 9.8, 3.2, 3, W, 0.4) +
    stroke('M16 13 24.5 5 28.5 12.5', 2.6) +
    path('M26.4 12.7h4.4l-1 4.9-3.8-1.5Z'),
  backhoe:
    rect(6, 13.5, 20, 6.5, INK, 1) +
    rect(8.5, 5.5, 7.5, 8.5, INK, 1) +
    rect(10, 7, 4.5, 4.5, W, 0.5) +
    stroke('M25 15 28 12.5', 2.2) +
    path('M26.5 11h4v8.5l-4-1.5Z') +
    stroke('M6.5 14 3 6.5 1.8 14', 2.2) +
    path('M.5 13.5h3.4l-.8 3.6h-2Z') +
    wheel(11, 22.3, 4.5) +
    wheel(23, 23.3, 3.3),
  bulldozer:
    rect(3.5, 19.5, 22, 6.5, INK, 3.2) +
    [7, 11.5, 16, 20.5].map((x) => circle(x, 22.7, 1.1, W)).join('') +
    rect(6, 12.5, 16.5, 7.5, INK, 1) +
    rect(8, 6, 7.5, 7, INK, 1) +
    rect(9.5, 7.5, 4.5, 4, W, 0.5) +
    path('M26 10.5c2.8 4 2.8 9.5.5 15H31v-15Z') +
    stroke('M22.5 17.5H26', 2.2),
  loader:
    rect(3.5, 13.5, 20.5, 6.5, INK, 1) +
    rect(5.5, 5.5, 7.5, 8.5, INK, 1) +
    rect(7, 7, 4.5, 4.5, W, 0.5) +
    stroke('M18 14.5 25 11.5', 2.6) +
    path('M24.5 8.5h6.5v8.5l-4 1.3-2.5-1.3Z') +
    wheel(8.5, 22.3, 4.4) +
    wheel(21.5, 22.3, 4.4),
  grader:
    rect(2.5, 8, 8, 9, INK, 1) +
    rect(4, 9.5, 5, 4.5, W, 0.5) +
    stroke('M9.5 15.5H28v7', 2.6) +
    path('M14 21.5h7.5l-1 3h-5.5Z') +
    wheel(5, 23.8, 3) +
    wheel(10.5, 23.8, 3) +
    wheel(28, 23.8, 3),
  roller:
    rect(17.5, 15.5, 13, 10.5, INK, 5.2) +
    stroke('M20 20.8h8', 1.2, W) +
    rect(3.5, 12, 16, 7, INK, 1) +
    stroke('M5.5 12V5h9v7', 1.8) +
    rect(4.5, 3.8, 11, 2, INK, 0.8) +
    wheel(7.5, 22.3, 4),
  crane:
    rect(2, 19, 24, 3, INK, 0.8) +
    boxCab(24.6).replace('M24.6 21.5V11', 'M24.6 21.5V13') +
    rect(4, 15.5, 8, 4, INK, 1) +
    stroke('M7 16.5 28.5 3.5', 2.6) +
    stroke('M28 3.5v8', 1.1) +
    stroke('M28 11.5c0 1.6-1.8 1.6-1.8.3', 1.3) +
    wheel(5, 23.8, 2.7) +
    wheel(10.4, 23.8, 2.7) +
    wheel(16, 23.8, 2.7) +
    wheel(27.5, 23.8, 2.7),
  forklift:
    rect(3, 12.5, 4, 9, INK, 1) +
    rect(6, 12.5, 14.5, 8.5, INK, 1) +
    stroke('M8.5 12.5 9.5 4h8.5l1 8.5', 1.8) +
    rect(21.5, 3, 2, 21.5, INK, 0.6) +
    rect(23, 22.2, 7.5, 1.9, INK, 0.6) +
    wheel(10, 23.4, 3.4) +
    wheel(18.5, 23.8, 2.9),
  telehandler:
    rect(3, 14, 19.5, 6.5, INK, 1) +
    rect(4.5, 6.5, 7, 7.5, INK, 1) +
    rect(6, 8, 4, 4, W, 0.5) +
    stroke('M9 15 27 6.5', 3.2) +
    stroke('M27 6.5v7.5h4', 1.8) +
    wheel(7.5, 22.6, 4) +
    wheel(19, 22.6, 4),
  generator:
    rect(3.5, 8, 25, 14, INK, 1.8) +
    path('M17.2 9.8l-5 6.8h4l-1.6 4.6 5.8-7.2h-4Z', AMBER) +
    wheel(8.5, 24.2, 2.5) +
    wheel(23.5, 24.2, 2.5),
  container:
    rect(1.5, 8, 29, 16, INK, 1) +
    [5, 8.5, 12, 15.5, 19, 22.5, 26].map((x) => rect(x, 10, 1, 12, W, 0.4)).join(''),
  boat:
    path('M1.5 18.5h29L26.5 26h-20Z') +
    path('M8.5 18.5V12.5c0-.6.4-1 1-1h9.2l3.8 7Z') +
    rect(10.5, 13.3, 3.5, 3, W, 0.5) +
    rect(15.2, 13.3, 3.3, 3, W, 0.5) +
    stroke('M2 29c2.5-1.4 4.5-1.4 7 0s4.5 1.4 7 0 4.5-1.4 7 0 4.5 1.4 7 0', 1.2, BLUE),
  jet_ski:
    path('M2.5 20h25.8c1.8 0 2.6 1.5 1.6 2.9L28.5 25H6.5c-2.5 0-4-1.8-4-4Z') +
    path('M8.5 20c0-2.4 1.6-4 4-4h5.5l2 4Z') +
    stroke('M20 16.5 22.5 11.5h3', 1.9) +
    stroke('M2 29c2.5-1.4 4.5-1.4 7 0s4.5 1.4 7 0 4.5-1.4 7 0 4.5 1.4 7 0', 1.2, BLUE),
  ship:
    path('M1 18h30l-3.5 8H4.5Z') +
    rect(3.5, 11, 9, 7, INK, 0.6) +
    rect(5, 6.5, 6, 4.5, INK, 0.6) +
    rect(6, 7.6, 4, 1.8, W, 0.4) +
    rect(14.5, 12.5, 14, 5.5, INK, 0.4) +
    [18, 21.5, 25].map((x) => rect(x, 12.5, 0.8, 5.5, W)).join('') +
    rect(4.8, 12.5, 6.4, 1.4, W, 0.4),
  helicopter:
    path('M8 16c0-3 2.5-5 6-5h5c3 0 5 2.5 5 5.5S22 20 19.5 20H12c-2.3 0-4-1.7-4-4Z') +
    path('M19.5 12.5c2.2.2 3.3 1.5 3.4 3.5h-3.4Z', W) +
    rect(1.5, 14, 8, 2, INK, 1) +
    rect(1.5, 11.5, 2, 4.5, INK, 0.8) +
    rect(3, 7.6, 26, 1.6, INK, 0.8) +
    rect(15.2, 8.5, 1.6, 3, INK) +
    stroke('M11 20v3.5M20 20v3.5M8.5 23.5h15', 1.6),
  airplane:
    path(
      'M2.5 16c0-1.4 1.1-2.5 2.5-2.5h19.5c3 0 5.8 1.3 6.3 2.8-.5 1.6-3.3 2.7-6.3 2.7H5c-1.4 0-2.5-1.1-2.5-3Z',
    ) +
    path('M2.8 13.5 4.3 7h3l3.8 6.5Z') +
    path('M12.5 17.5h8l-4 5.5h-3Z') +
    [14.5, 17, 19.5, 22].map((x) => circle(x, 15, 0.8, W)).join('') +
    path('M25.3 14.2c1.6 0 3 .5 3.6 1.3h-3.6Z', W),
  drone:
    rect(12, 14, 8, 5, INK, 1.5) +
    stroke('M12.5 15 6 12.5M19.5 15 26 12.5', 1.8) +
    `<ellipse cx="6" cy="11.2" rx="5" ry="1.2" fill="${INK}"/>` +
    `<ellipse cx="26" cy="11.2" rx="5" ry="1.2" fill="${INK}"/>` +
    stroke('M13 19l-1.5 4M19 19l1.5 4', 1.5) +
    circle(16, 16.5, 1.3, W),
  train:
    path('M1.5 22V9.5C1.5 8.1 2.6 7 4 7h19.5c3.5 0 6.2 2.6 7 6.2V22Z') +
    [3.5, 9, 14.5].map((x) => rect(x, 9, 4, 4.5, W, 0.5)).join('') +
    path('M21.5 9h2c2 0 3.7 1.6 4.4 4.5h-6.4Z', W) +
    rect(1.5, 16, 29, 1.3, W) +
    [5.5, 10.5, 21, 26].map((x) => wheel(x, 24, 2.3)).join(''),
  motorhome:
    path('M1.5 22.5V7c0-.8.7-1.5 1.5-1.5h21.5c.8 0 1.5.7 1.5 1.5v4.2l3.5 4c.6.6 1 1.4 1 2.3v5Z') +
    rect(4, 8, 5.5, 4, W, 0.5) +
    rect(11, 8, 6, 4, W, 0.5) +
    path('M24 12.5h1.8l3 3.3H24Z', W) +
    rect(18.5, 13.5, 3.2, 7.5, W, 0.5) +
    wheel(7.5, 23) +
    wheel(25, 23),
  person:
    circle(16, 6.8, 3.6) +
    path('M10.8 26.5V15.8c0-2.6 2-4.6 4.6-4.6h1.2c2.6 0 4.6 2 4.6 4.6v10.7h-3v-7h-4.4v7Z'),
  animal:
    path(
      'M4.5 16.5c0-3 2-5 5-5h11.5l3.5-3h3.7c1.2 0 2 1 1.7 2.2l-.9 3.3h-2.5l-2 2.2v3.3c0 1.1-.9 2-2 2h-.8V26h-2.4v-4.5h-7.6V26H9.4v-4.5c-3-.3-4.9-2.2-4.9-5Z',
    ) + stroke('M4.8 14 2.5 19.5', 1.4),
  asset:
    path('M16 3.5 27.5 9.2v13.6L16 28.5 4.5 22.8V9.2Z') +
    stroke('M4.8 9.4 16 15l11.2-5.6M16 15v13', 1.2, W),
  default:
    path(
      'M16 2.5c-5 0-8.5 3.6-8.5 8.6 0 6.3 8.5 17.4 8.5 17.4s8.5-11.1 8.5-17.4c0-5-3.5-8.6-8.5-8.6Z',
    ) + circle(16, 11, 3.3, W),
};

/** The pictogram as a standalone SVG file. */
export function pictogramSvg(type: string, label: string): string {
  const body = PICTOGRAMS[type] ?? PICTOGRAMS.default;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32" role="img" aria-label="${label}">${body}</svg>\n`;
}
