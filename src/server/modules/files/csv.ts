import { parse } from 'csv-parse/sync';
import { badRequest } from '../../common/http-error';

/**
 * An uploaded CSV's rows (a bulk card file, a bank statement): a leading BOM, blank lines and
 * the space around cells dropped, rows of any length; 400 on the field "file" when it is no CSV.
 */
export function csvRows(bytes: Buffer): string[][] {
  try {
    return parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
    });
  } catch (error) {
    throw badRequest(`The file is not CSV: ${(error as Error).message}`, 'file');
  }
}
