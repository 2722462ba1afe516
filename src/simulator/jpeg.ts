// The simulator's JPEG encoder (baseline, 4:4:4, as jpeg-js wrote them before): a drawn screen is mostly 8×8 blocks of
// one colour, and such a block is its DC term alone, so only the blocks an edge or a glyph crosses pay for a DCT.
// jpeg-js spent 130–500 ms of the simulator's one thread on a 1080×1920 screen of rectangles; this, a few tens.
// The format: ITU-T T.81 (baseline sequential DCT, Huffman coded), JFIF's colour space.

/** The example quantisation tables of T.81 Annex K (luminance, chrominance), in row order. */
const LUMA = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99];
const CHROMA = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, ...new Array<number>(32).fill(99)];
/** Zigzag position → row-order index. */
const ZIGZAG = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63];

/**
 * One Huffman table for the DC differences (categories 0–11, 4 bits each) and one for the AC terms: end of block in
 * 2 bits (a flat block's only AC symbol), a run of no zeros in 4, every other run/size (and 16 zeros) in 11. Any
 * table whose code lengths fit is valid baseline JPEG; these suit screens of flat colour.
 */
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_SHORT = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a];
const AC_LONG = [0xf0, ...Array.from({ length: 15 * 10 }, (_, i) => (((i / 10) | 0) + 1) * 16 + (i % 10) + 1)];
const DC_TABLE = huffman([[4, DC_SYMBOLS]]);
const AC_TABLE = huffman([[2, [0x00]], [4, AC_SHORT], [11, AC_LONG]]);
/** cos((2x + 1)uπ/16) · C(u) / 2, for u and x 0–7: the 8-point DCT of T.81 A.3.3, one dimension at a time. */
const COS = Float64Array.from({ length: 64 }, (_, i) => {
  const u = i >> 3;
  const x = i & 7;
  return ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/**
 * Encodes opaque RGBA pixels as a baseline JPEG.
 * @param quality 1–100, scaling the Annex K tables as the IJG's library does
 */
export function encodeJpeg(rgba: Buffer, width: number, height: number, quality: number): Buffer {
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  const tables = [LUMA, CHROMA].map((t) => t.map((q) => Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100)))));
  const out = new BitWriter(width * height);
  out.bytes(header(width, height, tables));
  const prevDc = [0, 0, 0];
  const block = [new Float64Array(64), new Float64Array(64), new Float64Array(64)];
  const coefficients = new Int32Array(64);
  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      const flat = isFlat(rgba, width, height, bx, by);
      if (flat !== undefined) {
        // A block of one colour: its DC term is 8 × (value − 128), every AC term 0.
        const ycc = toYcc(rgba[flat]!, rgba[flat + 1]!, rgba[flat + 2]!);
        for (let c = 0; c < 3; c++) {
          const dc = Math.round((8 * (ycc[c]! - 128)) / tables[c === 0 ? 0 : 1]![0]!);
          writeDc(out, dc - prevDc[c]!);
          prevDc[c] = dc;
          out.code(AC_TABLE.codes[0x00]!);
        }
        continue;
      }
      readBlock(rgba, width, height, bx, by, block);
      for (let c = 0; c < 3; c++) {
        fdct(block[c]!, tables[c === 0 ? 0 : 1]!, coefficients);
        writeDc(out, coefficients[0]! - prevDc[c]!);
        prevDc[c] = coefficients[0]!;
        writeAc(out, coefficients);
      }
    }
  }
  out.flush();
  out.bytes([0xff, 0xd9]);
  return out.result();
}

/** The index in `rgba` of the block's colour when all its pixels (clamped to the image) are that colour; undefined else. */
function isFlat(rgba: Buffer, width: number, height: number, bx: number, by: number): number | undefined {
  const first = (by * width + bx) * 4;
  const r = rgba[first]!;
  const g = rgba[first + 1]!;
  const b = rgba[first + 2]!;
  const xEnd = Math.min(bx + 8, width);
  const yEnd = Math.min(by + 8, height);
  for (let y = by; y < yEnd; y++) {
    for (let i = (y * width + bx) * 4, end = (y * width + xEnd) * 4; i < end; i += 4) {
      if (rgba[i] !== r || rgba[i + 1] !== g || rgba[i + 2] !== b) return undefined;
    }
  }
  return first;
}

/** The block's three components, level-shifted, its pixels past the image's edge repeating the last row or column. */
function readBlock(rgba: Buffer, width: number, height: number, bx: number, by: number, into: Float64Array[]): void {
  for (let y = 0; y < 8; y++) {
    const row = Math.min(by + y, height - 1) * width;
    for (let x = 0; x < 8; x++) {
      const i = (row + Math.min(bx + x, width - 1)) * 4;
      const ycc = toYcc(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
      for (let c = 0; c < 3; c++) into[c]![y * 8 + x] = ycc[c]! - 128;
    }
  }
}

const YCC = new Float64Array(3);
/** JFIF's YCbCr of an RGB colour (ITU-R BT.601, full range). */
function toYcc(r: number, g: number, b: number): Float64Array {
  YCC[0] = 0.299 * r + 0.587 * g + 0.114 * b;
  YCC[1] = -0.168736 * r - 0.331264 * g + 0.5 * b + 128;
  YCC[2] = 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
  return YCC;
}

const ROWS = new Float64Array(64);
/** The block's DCT, quantised, in row order (v · 8 + u). */
function fdct(f: Float64Array, table: readonly number[], out: Int32Array): void {
  // Each row along x, then each column along y.
  for (let y = 0; y < 8; y++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += COS[u * 8 + x]! * f[y * 8 + x]!;
      ROWS[y * 8 + u] = s;
    }
  }
  for (let v = 0; v < 8; v++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += COS[v * 8 + y]! * ROWS[y * 8 + u]!;
      // Baseline JPEG codes a term of at most 10 bits (T.81 F.1.2.2).
      out[v * 8 + u] = Math.max(-1023, Math.min(1023, Math.round(s / table[v * 8 + u]!)));
    }
  }
}

function writeDc(out: BitWriter, diff: number): void {
  const size = bitLength(diff);
  out.code(DC_TABLE.codes[size]!);
  if (size) out.bits(diff < 0 ? diff + (1 << size) - 1 : diff, size);
}

function writeAc(out: BitWriter, coefficients: Int32Array): void {
  let run = 0;
  for (let k = 1; k < 64; k++) {
    const value = coefficients[ZIGZAG[k]!]!;
    if (value === 0) {
      run++;
      continue;
    }
    for (; run > 15; run -= 16) out.code(AC_TABLE.codes[0xf0]!);
    const size = bitLength(value);
    out.code(AC_TABLE.codes[(run << 4) | size]!);
    out.bits(value < 0 ? value + (1 << size) - 1 : value, size);
    run = 0;
  }
  if (run > 0) out.code(AC_TABLE.codes[0x00]!);
}

/** Bits needed for |n| (the "category" of T.81 F.1.2.1). */
function bitLength(n: number): number {
  let a = Math.abs(n);
  let size = 0;
  while (a) {
    size++;
    a >>= 1;
  }
  return size;
}

/** A canonical Huffman table (T.81 C.2) from [code length, symbols] in rising lengths: symbol → [code, length]. */
function huffman(groups: [number, number[]][]): { codes: [number, number][]; spec: number[] } {
  const codes: [number, number][] = [];
  const counts = new Array<number>(16).fill(0);
  let code = 0;
  let length = groups[0]![0];
  for (const [len, symbols] of groups) {
    code <<= len - length;
    length = len;
    counts[len - 1] = symbols.length;
    for (const s of symbols) codes[s] = [code++, len];
  }
  return { codes, spec: [...counts, ...groups.flatMap(([, s]) => s)] };
}

/** SOI, JFIF, the two quantisation tables, the frame (3 components, no subsampling), the Huffman tables, the scan. */
function header(width: number, height: number, tables: number[][]): number[] {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  return [
    0xff, 0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, tables.flatMap((t, id) => [id, ...ZIGZAG.map((i) => t[i]!)])),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]),
    ...segment(0xc4, [0x00, ...DC_TABLE.spec, 0x10, ...AC_TABLE.spec]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
  ];
}

/** Entropy-coded bytes, a 0xff followed by a stuffed 0x00 (T.81 F.1.2.3). */
class BitWriter {
  #buffer: Buffer;
  #length = 0;
  #acc = 0;
  #count = 0;

  constructor(hint: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(1024, hint >> 3));
  }

  code([code, length]: [number, number]): void {
    this.bits(code, length);
  }

  bits(value: number, length: number): void {
    // At most 16 bits come in, and fewer than 8 are held: the accumulator stays within 24 bits.
    this.#acc = (this.#acc << length) | (value & ((1 << length) - 1));
    this.#count += length;
    while (this.#count >= 8) {
      this.#count -= 8;
      const byte = (this.#acc >> this.#count) & 0xff;
      this.#byte(byte);
      if (byte === 0xff) this.#byte(0);
    }
    this.#acc &= (1 << this.#count) - 1;
  }

  /** Pads the last byte with 1 bits. */
  flush(): void {
    if (this.#count > 0) this.bits(0x7f, 8 - this.#count);
  }

  bytes(bytes: number[]): void {
    for (const b of bytes) this.#byte(b);
  }

  result(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }

  #byte(b: number): void {
    if (this.#length === this.#buffer.length) {
      const grown = Buffer.allocUnsafe(this.#buffer.length * 2);
      this.#buffer.copy(grown);
      this.#buffer = grown;
    }
    this.#buffer[this.#length++] = b;
  }
}
