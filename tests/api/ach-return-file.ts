/**
 * A bank's ACH return file, as a receiving bank sends one back: per return, a return entry and its
 * 799 addenda record (the R-code and the original entry's trace number). The API tests and the
 * browser test upload it to POST /api/admin/ach-returns.
 */
export function achReturnFile(
  ach: { originRouting: string; destinationRouting: string },
  returns: { trace: string; code: string }[],
) {
  const pad = (s: string) => s.padEnd(94, ' ');
  const lines = [
    pad(
      `101 ${ach.originRouting} ${ach.destinationRouting}2611270000A094101Origin Bank            Federal Reserve        RETURNS`,
    ),
    pad(
      `5220Federal Reserve                     1234567890PPDRETURN    NOV 27261127   1${ach.destinationRouting.slice(0, 8)}0000001`,
    ),
  ];
  returns.forEach((r, i) => {
    lines.push(
      pad(
        `621${ach.originRouting}000000000000     0000000000RETURN${String(i).padStart(9, '0')}RETURNED ENTRY          1${ach.destinationRouting.slice(0, 8)}${String(i + 1).padStart(7, '0')}`,
      ),
    );
    lines.push(
      pad(
        `799${r.code}${r.trace}      ${ach.originRouting.slice(0, 8)}${''.padEnd(44, ' ')}${ach.destinationRouting.slice(0, 8)}${String(i + 1).padStart(7, '0')}`,
      ),
    );
  });
  lines.push(pad('8220'), pad('9000001'));
  return `${lines.join('\n')}\n`;
}
