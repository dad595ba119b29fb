/** The part of nach2 (NACHA files, no types of its own) the ACH rail uses. */
declare module 'nach2' {
  type Fields = Record<string, string | Date | undefined>;
  export class File {
    constructor(options: Fields);
    addBatch(batch: Batch): void;
    generateFile(done: (text: string) => void): void;
  }
  export class Batch {
    constructor(options: Fields);
    addEntry(entry: Entry): void;
  }
  export class Entry {
    constructor(options: Fields);
  }
  const nach: { File: typeof File; Batch: typeof Batch; Entry: typeof Entry };
  export default nach;
}
