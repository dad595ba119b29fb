import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRAND_GREEN, BRAND_GREEN_DARK } from '../../shared/brand';

/** An `oklch(L C h)` colour in sRGB hex (Björn Ottosson's OKLab matrices). */
function oklchToHex(l: number, c: number, h: number) {
  const a = c * Math.cos((h * Math.PI) / 180);
  const b = c * Math.sin((h * Math.PI) / 180);
  const l3 = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m3 = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s3 = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
    -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
    -0.0041960863 * l3 - 0.7034186147 * m3 + 1.707614701 * s3,
  ];
  const channel = (x: number) => {
    const v = Math.min(1, Math.max(0, x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${linear.map(channel).join('')}`;
}

describe('the brand green the server writes', () => {
  it("is the app's --primary, in the light and the dark theme", () => {
    const css = readFileSync(new URL('../../client/index.css', import.meta.url), 'utf8');
    const primaries = [...css.matchAll(/--primary:\s*oklch\(([\d.]+) ([\d.]+) ([\d.]+)\)/g)].map(
      (m) => oklchToHex(Number(m[1]), Number(m[2]), Number(m[3])),
    );
    expect(primaries).toEqual([BRAND_GREEN, BRAND_GREEN_DARK]);
  });
});
