/**
 * A cell a spreadsheet would read as a formula (=, +, - or @ first, also after spaces and after
 * invisible format characters: zero-width spaces and joiners, a byte order mark, direction marks)
 * or whose first character is a tab or carriage return (decision 052): such cells get a leading
 * apostrophe, so the sheet shows text and runs nothing.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Cf}]*[=+\-@＝＋－＠])/u;

/** One cell: quoted always, quotes doubled, a formula made text. */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/**
 * A CSV document (RFC 4180: CRLF line ends, every cell quoted), with a UTF-8 byte order mark
 * first so spreadsheets read accents and other scripts as UTF-8.
 */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
