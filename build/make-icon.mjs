// Draws build/icon.png (512x512 RGBA), the app icon electron-builder turns into .icns/.ico/Linux
// sizes: an indigo rounded square with a white toggle switch, "on". Built-ins only; run with
// `node build/make-icon.mjs` after changing it, and commit the PNG.
import { writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 512;
const OUT = new URL('./icon.png', import.meta.url);

const TOP = [91, 110, 245]; // #5b6ef5
const BOTTOM = [55, 65, 196]; // #3741c4
const KNOB = [49, 58, 178]; // #313ab2
const WHITE = [255, 255, 255];

/** Signed distance from (x, y) to a rounded rectangle centred at (cx, cy); negative inside. */
function roundedRect(x, y, cx, cy, halfWidth, halfHeight, radius) {
  const qx = Math.abs(x - cx) - halfWidth + radius;
  const qy = Math.abs(y - cy) - halfHeight + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

/** How much of the pixel a shape covers, from its distance: a one-pixel anti-aliased edge. */
const coverage = (distance) => Math.min(1, Math.max(0, 0.5 - distance));

/** `over` composited onto `under` (straight alpha), both [r, g, b, a] with a in 0..1. */
function blend(under, colour, alpha) {
  const a = alpha + under[3] * (1 - alpha);
  if (a === 0) return [0, 0, 0, 0];
  const mix = (i) => (colour[i] * alpha + under[i] * under[3] * (1 - alpha)) / a;
  return [mix(0), mix(1), mix(2), a];
}

function pixel(x, y) {
  const c = SIZE / 2;
  let rgba = [0, 0, 0, 0];
  // Background: a rounded square with a small margin, shaded top to bottom.
  const t = y / SIZE;
  const background = TOP.map((v, i) => v + (BOTTOM[i] - v) * t);
  rgba = blend(rgba, background, coverage(roundedRect(x, y, c, c, 224, 224, 100)));
  // The switch: a white pill (track) with an indigo knob on the right.
  rgba = blend(rgba, WHITE, coverage(roundedRect(x, y, c, c, 150, 78, 78)));
  rgba = blend(rgba, KNOB, coverage(Math.hypot(x - (c + 72), y - c) - 58));
  return rgba;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const rows = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y++) {
  const row = y * (1 + SIZE * 4);
  rows[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const [r, g, b, a] = pixel(x + 0.5, y + 0.5);
    rows.set([r, g, b, a * 255].map(Math.round), row + 1 + x * 4);
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter method, no interlace

writeFileSync(
  OUT,
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
console.log(`wrote ${OUT.pathname}`);
