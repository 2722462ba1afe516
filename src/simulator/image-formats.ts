import { PNG } from 'pngjs';
import { encodeJpeg } from './jpeg.js';

/** The image formats a screen capture is offered in (the vendor's `type`). */
export type ImageFormat = 'png' | 'jpg' | 'bmp';

/** Every {@link ImageFormat}, in the order messages list them. */
export const IMAGE_FORMATS: readonly ImageFormat[] = ['png', 'jpg', 'bmp'];

/** The content type each format is served with. */
export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = { png: 'image/png', jpg: 'image/jpeg', bmp: 'image/bmp' };

/**
 * JPEG quality: at 90 a drawn screen decodes within a few levels of its pixels (mean error below one level
 * on the default phones' home screens). Encoded by jpeg.ts, which spends a DCT only where a block is not one colour.
 */
const JPEG_QUALITY = 90;
/** BITMAPFILEHEADER (14 bytes) + BITMAPINFOHEADER (40 bytes). */
const BMP_HEADER = 54;

/**
 * Encodes opaque RGBA pixels (4 bytes a pixel, rows top to bottom) in one of the capture formats.
 * @param rgba the pixels; alpha is ignored (a phone's screen is opaque)
 */
export function encodeImage(format: ImageFormat, rgba: Buffer, width: number, height: number): Buffer {
  if (format === 'jpg') return encodeJpeg(rgba, width, height, JPEG_QUALITY);
  if (format === 'bmp') return encodeBmp(rgba, width, height);
  // Given the pixels as they are: a PNG made with its size would allocate (and zero) a buffer of its own first.
  const png = new PNG();
  png.width = width;
  png.height = height;
  png.data = rgba;
  // The "up" filter suits screens of flat rectangles; pngjs's default tries all five per row, at deflate level 9.
  return PNG.sync.write(png, { filterType: 2, deflateLevel: 1 });
}

/**
 * A 24-bit Windows bitmap (BITMAPINFOHEADER, no compression): rows bottom-up, each pixel blue, green, red,
 * each row padded to a multiple of four bytes, as every reader of BMP files expects.
 */
function encodeBmp(rgba: Buffer, width: number, height: number): Buffer {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const size = BMP_HEADER + rowBytes * height;
  const out = Buffer.alloc(size);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(BMP_HEADER, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(rowBytes * height, 34);
  // 2835 pixels a metre: 72 dpi, what most writers put there.
  out.writeInt32LE(2835, 38);
  out.writeInt32LE(2835, 42);
  for (let y = 0; y < height; y++) {
    let o = BMP_HEADER + (height - 1 - y) * rowBytes;
    for (let i = y * width * 4, end = i + width * 4; i < end; i += 4, o += 3) {
      out[o] = rgba[i + 2]!;
      out[o + 1] = rgba[i + 1]!;
      out[o + 2] = rgba[i]!;
    }
  }
  return out;
}
