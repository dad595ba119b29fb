import * as React from 'react';
import { encode } from 'uqr';

/** The QR code of the authenticator's setup link, drawn as one SVG path. */
export function QrCode({ value }: { value: string }) {
  const { size, data } = React.useMemo(() => encode(value, { ecc: 'M', border: 2 }), [value]);
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      className="size-48 rounded-lg bg-white p-1"
      role="img"
      aria-label="QR code to scan with your authenticator app"
      data-testid="totp-qr"
      shapeRendering="crispEdges"
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
