import jsQRModule from 'jsqr';
import {
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFArray,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';

/** One page of a tickets PDF as a person or a scanner reads it: its text, and the QR code its image holds. */
// A CommonJS package typed as an ES module: under Node's ES modules its default import is `module.exports`.
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: Decode = ((jsQRModule as unknown as { default?: Decode }).default ?? jsQRModule) as Decode;

export interface ReadPage {
  text: string;
  barcode: string | null;
}

const bytesOf = (stream: PDFRawStream) => decodePDFRawStream(stream).decode();

/** The text a content stream draws (hex strings of the standard fonts, WinAnsi: Latin-1 for what tickets print). */
function drawnText(content: Uint8Array): string {
  const ops = Buffer.from(content).toString('latin1');
  const parts: string[] = [];
  for (const m of ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
    parts.push(m[1] !== undefined ? Buffer.from(m[1], 'hex').toString('latin1') : m[2]!.replace(/\\(.)/g, '$1'));
  }
  return parts.join('\n');
}

const num = (dict: PDFDict, key: string) => (dict.lookup(PDFName.of(key), PDFNumber) as PDFNumber).asNumber();

/** Decodes an image XObject into RGBA pixels and reads the QR code in it, or null when it holds none. */
function qrOf(image: PDFRawStream): string | null {
  const width = num(image.dict, 'Width');
  const height = num(image.dict, 'Height');
  const bits = num(image.dict, 'BitsPerComponent');
  const space = image.dict.lookup(PDFName.of('ColorSpace'));
  if (bits !== 8) throw new Error(`unexpected ${bits} bits per component`);
  const channels = space === PDFName.of('DeviceGray') ? 1 : 3;
  const pixels = bytesOf(image);
  if (pixels.length < width * height * channels)
    throw new Error(`image data is ${pixels.length} bytes for ${width}×${height}×${channels}`);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = pixels[i * channels + (channels === 1 ? 0 : c)]!;
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, width, height)?.data ?? null;
}

/** Reads a tickets PDF from its bytes: each page's text and the decoded QR code of its image. */
export async function readTicketsPdf(bytes: Uint8Array): Promise<ReadPage[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const contents: PDFObject | undefined = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    const text = streams
      .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
      .map((s) => drawnText(bytesOf(s)))
      .join('\n');
    let barcode: string | null = null;
    const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
    for (const [, ref] of xobjects?.entries() ?? []) {
      const image = doc.context.lookup(ref);
      if (image instanceof PDFRawStream && image.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
        barcode ??= qrOf(image);
    }
    return { text, barcode };
  });
}
