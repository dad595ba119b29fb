import { Column, is, SQL, Subquery } from 'drizzle-orm';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** What Drizzle keeps of a prepared select: its selected fields, and the mapper it may use instead. */
interface PreparedSelect {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** What a Drizzle SQL expression keeps: the decoder `sql<T>\`...\`.mapWith()` gave it. */
type Decoded = { decoder: Decoder };

/** The decoder Drizzle's own row mapping picks for a field (drizzle-orm's `mapResultRow`). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: Decoded } })._.sql.decoder;
  return (field as { sql: Decoded }).sql.decoder;
}

/**
 * A prepared select whose rows are mapped with decoders picked once, when it is prepared
 * (decision 091). Drizzle's own mapping picks each cell's decoder again for every row, with
 * `instanceof` walks and an iterator per cell: a tenth of a restart wave's CPU and much of its
 * garbage, for the batched poll reads that map thousands of rows at once. For flat selections
 * only (no nested objects, so no nulling of a left-joined table): anything else is refused here,
 * when the statement is prepared.
 */
export function mappedOnce<T>(statement: T): T {
  const select = statement as PreparedSelect;
  const fields = select.fields;
  if (!fields || fields.some(({ path }) => path.length !== 1)) {
    throw new Error('mappedOnce takes a prepared select of flat fields');
  }
  const names = fields.map(({ path }) => path[0]!);
  const decoders = fields.map(({ field }) => decoderOf(field));
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const raw = row[i];
      result[names[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
    }
    return result;
  };
  select.customResultMapper = (rows) => rows.map(mapRow);
  return statement;
}
