/** A value of a JavaScript object literal as `sendAai`'s `params` writes it. */
export type Literal = string | number | boolean | null | Literal[] | { [key: string]: Literal };

/** Deeper than any `params` a client writes (an object holding a list of strings is two). */
const MAX_DEPTH = 8;
const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

/**
 * Reads `sendAai`'s `params`: a JavaScript object literal, not JSON, as the vendor's clients write it
 * (`{query:"T:OK",action:'click'}`): keys bare (`query`) or quoted, strings in `"…"` or `'…'` (with `\` escapes,
 * `\uXXXX` among them), numbers, `true`, `false`, `null`, lists, objects, a trailing comma. Strict JSON is one
 * such literal. Anything else (an expression, a comment, text after the closing brace) is refused.
 * @returns the value, or what is wrong and where
 */
export function parseLiteral(text: string): { value: Literal } | { error: string } {
  const reader = new Reader(text);
  try {
    const value = reader.value(0);
    reader.skipSpace();
    if (!reader.done) reader.fail('text after the end');
    return { value };
  } catch (e) {
    if (e instanceof LiteralError) return { error: e.message };
    throw e;
  }
}

class LiteralError extends Error {}

class Reader {
  #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  get done(): boolean {
    return this.#at >= this.#text.length;
  }

  fail(what: string): never {
    const near = this.#text.slice(this.#at, this.#at + 20);
    throw new LiteralError(`${what} at character ${this.#at + 1}${near ? ` (${JSON.stringify(near)})` : ' (the end)'}`);
  }

  skipSpace(): void {
    while (/[ \t\r\n]/.test(this.#text[this.#at] ?? '')) this.#at++;
  }

  value(depth: number): Literal {
    if (depth > MAX_DEPTH) this.fail(`more than ${MAX_DEPTH} levels of lists and objects`);
    this.skipSpace();
    const c = this.#text[this.#at];
    if (c === '{') return this.#object(depth);
    if (c === '[') return this.#list(depth);
    if (c === '"' || c === "'") return this.#string();
    if (c !== undefined && /[-0-9]/.test(c)) return this.#number();
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.#text.slice(this.#at))?.[0];
    const constants: Record<string, Literal> = { true: true, false: false, null: null };
    if (word !== undefined && word in constants) {
      this.#at += word.length;
      return constants[word]!;
    }
    return this.fail(word === undefined ? 'expected a value (a string in quotes, a number, a list or an object)' : `${word} is not a value (a string needs quotes)`);
  }

  #object(depth: number): { [key: string]: Literal } {
    this.#at++;
    const out: { [key: string]: Literal } = Object.create(null) as { [key: string]: Literal };
    for (;;) {
      this.skipSpace();
      if (this.#take('}')) return out;
      const key = this.#key();
      if (key in out) this.fail(`the key ${key} given twice`);
      this.skipSpace();
      if (!this.#take(':')) this.fail(`expected ":" after the key ${key}`);
      out[key] = this.value(depth + 1);
      this.skipSpace();
      if (this.#take('}')) return out;
      if (!this.#take(',')) this.fail('expected "," or "}"');
    }
  }

  #list(depth: number): Literal[] {
    this.#at++;
    const out: Literal[] = [];
    for (;;) {
      this.skipSpace();
      if (this.#take(']')) return out;
      out.push(this.value(depth + 1));
      this.skipSpace();
      if (this.#take(']')) return out;
      if (!this.#take(',')) this.fail('expected "," or "]"');
    }
  }

  #key(): string {
    const c = this.#text[this.#at];
    if (c === '"' || c === "'") return this.#string();
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.#text.slice(this.#at))?.[0];
    if (word === undefined) this.fail('expected a key (a name such as query, or a string)');
    this.#at += word.length;
    return word;
  }

  #string(): string {
    const quote = this.#text[this.#at++];
    let out = '';
    for (;;) {
      const c = this.#text[this.#at];
      if (c === undefined || c === '\n' || c === '\r') this.fail(`a string not closed with ${quote}`);
      this.#at++;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.#text[this.#at++] ?? '';
      if (e in ESCAPES) out += ESCAPES[e];
      else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(this.#text.slice(this.#at, this.#at + 4))) {
        out += String.fromCharCode(parseInt(this.#text.slice(this.#at, this.#at + 4), 16));
        this.#at += 4;
      } else {
        this.#at -= 2;
        this.fail(`an escape \\${e} this reader does not know (it knows \\\\ \\' \\" \\/ \\n \\r \\t \\b \\f \\uXXXX)`);
      }
    }
  }

  #number(): number {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?/.exec(this.#text.slice(this.#at));
    if (!m) this.fail('expected a number');
    this.#at += m[0].length;
    return Number(m[0]);
  }

  #take(c: string): boolean {
    if (this.#text[this.#at] !== c) return false;
    this.#at++;
    return true;
  }
}
