import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';

const streamText = (stream: PDFRawStream) =>
  Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');

/**
 * The text a PDF of ours shows, one string per text-drawing operator, in drawing order: strings
 * in the embedded Unicode font are read back through its ToUnicode map, the standard fonts' as
 * WinAnsi (Latin-1).
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const shown: string[] = [];
  for (const page of pdf.getPages()) {
    const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    const toUnicode = new Map<string, Map<number, string>>();
    for (const [name, ref] of fonts.entries()) {
      const font = pdf.context.lookup(ref as PDFRef, PDFDict);
      const cmapRef = font.get(PDFName.of('ToUnicode'));
      if (!cmapRef) continue;
      const map = new Map<number, string>();
      const cmap = streamText(pdf.context.lookup(cmapRef as PDFRef) as PDFRawStream);
      for (const [, gid, utf16] of cmap.matchAll(/<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>/g)) {
        map.set(Number.parseInt(gid!, 16), Buffer.from(utf16!, 'hex').swap16().toString('utf16le'));
      }
      toUnicode.set(name.asString(), map);
    }
    const contents = page.node.Contents()!;
    const streams =
      contents instanceof PDFArray
        ? contents.asArray().map((ref) => pdf.context.lookup(ref as PDFRef) as PDFRawStream)
        : [contents as PDFRawStream];
    for (const stream of streams) {
      let font: Map<number, string> | undefined;
      for (const [, fontName, hex] of streamText(stream).matchAll(
        /(\/\S+) [\d.]+ Tf|<([0-9a-fA-F]*)> Tj/g,
      )) {
        if (fontName) {
          font = toUnicode.get(fontName);
          continue;
        }
        const bytes = Buffer.from(hex!, 'hex');
        if (!font) {
          shown.push(bytes.toString('latin1'));
          continue;
        }
        let text = '';
        for (let i = 0; i < bytes.length; i += 2)
          text += font.get(bytes.readUInt16BE(i)) ?? '\uFFFD';
        shown.push(text);
      }
    }
  }
  return shown;
}
