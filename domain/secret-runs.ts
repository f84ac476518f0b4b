/**
 * Where a text holds a known secret, whole or in part, in any letter case: a run of MIN_RUN or more
 * consecutive characters of it (its start, its end, a middle part), or all of a shorter one. Found
 * in time linear in the text and the secret (a suffix automaton of each secret, then one pass over
 * the text), so an upstream's text can be as hostile as it likes: there is no pattern to backtrack.
 */

/** This many consecutive characters of a secret are enough to hide (a prefix an upstream quoted, a suffix it showed). */
export const MIN_RUN = 8;

/** ASCII letters fold to lower case; every other code unit is itself (indices are kept, unlike toLowerCase). */
const fold = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * A secret whose parts are worth hiding on their own: a token-like string. A string with white
 * space (a whole cookie header: each of its values is a secret of its own) or a file path is
 * hidden only whole, so a message that names a folder or a cookie's name keeps its words.
 */
function hiddenInParts(secret: string): boolean {
  return !/\s/.test(secret) && !/^[~/\\]|^[A-Za-z]:[\\/]|\\/.test(secret);
}

/**
 * The start of a key that every key of its kind shares (`sk-or-v1-`, `github_pat_`, a JWT's header):
 * no secret, and written in advice ("OpenRouter keys start with sk-or-v1-"). A run of the secret
 * must reach past it to be hidden.
 */
const PUBLIC_PREFIX = /^(?:sk-or-v1-|sk-ant-[a-z]{1,8}\d{0,4}-|sk-proj-|github_pat_|Fe26\.2\*\*|eyJ[\w-]{0,256}\.)/;

/** How many first characters of a secret every key of its kind shares (0 for most). */
export function publicPrefixLength(secret: string): number {
  return PUBLIC_PREFIX.exec(secret)?.[0].length ?? 0;
}

/** The suffix automaton of a folded secret: every substring of it is a path from state 0. */
class SubstringAutomaton {
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly link: number[] = [-1];
  private readonly length: number[] = [0];

  constructor(secret: string) {
    let last = 0;
    for (let i = 0; i < secret.length; i++) last = this.extend(last, fold(secret.charCodeAt(i)));
  }

  private state(length: number, link: number, next: Map<number, number>): number {
    this.next.push(next);
    this.length.push(length);
    this.link.push(link);
    return this.length.length - 1;
  }

  private extend(last: number, code: number): number {
    const current = this.state((this.length[last] as number) + 1, 0, new Map());
    let p = last;
    while (p !== -1 && !(this.next[p] as Map<number, number>).has(code)) {
      (this.next[p] as Map<number, number>).set(code, current);
      p = this.link[p] as number;
    }
    if (p === -1) return current;
    const q = (this.next[p] as Map<number, number>).get(code) as number;
    if ((this.length[p] as number) + 1 === this.length[q]) {
      this.link[current] = q;
      return current;
    }
    const clone = this.state((this.length[p] as number) + 1, this.link[q] as number, new Map(this.next[q]));
    while (p !== -1 && (this.next[p] as Map<number, number>).get(code) === q) {
      (this.next[p] as Map<number, number>).set(code, clone);
      p = this.link[p] as number;
    }
    this.link[q] = clone;
    this.link[current] = clone;
    return current;
  }

  /** Calls `found(start, end)` for each end position where the longest piece of the secret ending there is `atLeast` long. */
  scan(text: string, atLeast: number, found: (start: number, end: number) => void): void {
    let state = 0;
    let matched = 0;
    for (let i = 0; i < text.length; i++) {
      const code = fold(text.charCodeAt(i));
      while (state !== 0 && !(this.next[state] as Map<number, number>).has(code)) {
        state = this.link[state] as number;
        matched = this.length[state] as number;
      }
      const to = (this.next[state] as Map<number, number>).get(code);
      if (to === undefined) {
        state = 0;
        matched = 0;
      } else {
        state = to;
        matched++;
      }
      if (matched >= atLeast) found(i + 1 - matched, i + 1);
    }
  }
}

interface CompiledSecret {
  automaton: SubstringAutomaton;
  /** How long a piece of it must be to be hidden. */
  atLeast: number;
}

/** Secrets are few and asked about for every string of a document: each is compiled once. */
const compiled = new Map<string, CompiledSecret>();
const MAX_COMPILED = 256;

function compile(secret: string): CompiledSecret {
  let entry = compiled.get(secret);
  if (entry === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    const inParts = hiddenInParts(secret);
    // a run may take up to MIN_RUN - 1 characters of the public prefix, never only them
    const skip = inParts ? Math.max(0, publicPrefixLength(secret) - (MIN_RUN - 1)) : 0;
    entry = {
      automaton: new SubstringAutomaton(secret.slice(skip)),
      atLeast: inParts ? Math.min(MIN_RUN, secret.length) : secret.length,
    };
    compiled.set(secret, entry);
  }
  return entry;
}

/** The text with every run of a known secret (see above) replaced by `mask`; secrets shorter than `minLength` are ignored. */
export function maskSecretRuns(text: string, secrets: readonly (string | null | undefined)[], mask: string, minLength: number): string {
  // +1 where a hidden run starts, -1 where it ends: the covered positions are where the sum is positive
  let cover: Int32Array | null = null;
  for (const secret of secrets) {
    if (!secret || secret.length < minLength) continue;
    const { automaton, atLeast } = compile(secret);
    automaton.scan(text, atLeast, (start, end) => {
      cover ??= new Int32Array(text.length + 1);
      cover[start] = (cover[start] as number) + 1;
      cover[end] = (cover[end] as number) - 1;
    });
  }
  if (cover === null) return text;
  const covered: Int32Array = cover;
  let out = "";
  let depth = 0;
  let plainFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const before = depth;
    depth += covered[i] as number;
    if (before === 0 && depth > 0) out += `${text.slice(plainFrom, i)}${mask}`;
    if (before > 0 && depth === 0) plainFrom = i;
  }
  return depth > 0 ? out : `${out}${text.slice(plainFrom)}`;
}
