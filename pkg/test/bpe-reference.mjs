// A second exact reference for the token tests, for the long single pieces that the tiktoken
// npm package cannot count in a test's time: its merge rescans the piece after every merge,
// quadratic (50k of `a`: 2.3 s; 300k: over a minute). This is the same rule, lowest rank
// first and leftmost on ties, with a heap, in O(n log n), over js-tiktoken's copy of the
// ranks. tokenizers-long.test.mjs checks it against tiktoken itself where tiktoken is fast
// enough, then uses it beyond.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The encoding's ranks, by the token's bytes as a latin1 string. */
export function loadRanks(encoding) {
  const ranks = new Map();
  for (const line of require(`js-tiktoken/ranks/${encoding}`).bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, offset, ...tokens] = line.split(' ');
    tokens.forEach((token, i) => ranks.set(Buffer.from(token, 'base64').toString('latin1'), Number(offset) + i));
  }
  return ranks;
}

/** Tokens of one piece (its UTF-8 bytes as a latin1 string), as tiktoken's merge makes them. */
export function pieceCount(piece, ranks) {
  const n = piece.length;
  if (n <= 1 || ranks.has(piece)) return Math.min(n, 1);
  // Part i is piece[i, next[i]); pair i is part i with the part after it.
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) { next[i] = i + 1; prev[i] = i - 1; }
  const rank = new Float64Array(n).fill(Infinity);
  const pairRank = (i) => (next[i] < n ? ranks.get(piece.slice(i, next[next[i]])) ?? Infinity : Infinity);
  const heap = new MinHeap();
  for (let i = 0; i + 1 < n; i++) {
    rank[i] = pairRank(i);
    if (rank[i] !== Infinity) heap.push(rank[i] * 2 ** 28 + i);
  }
  let parts = n;
  while (heap.size) {
    const key = heap.pop();
    const i = key % 2 ** 28;
    const r = (key - i) / 2 ** 28;
    if (rank[i] !== r) continue; // stale: the pair at i changed since
    const j = next[i];
    next[i] = next[j];
    prev[next[j]] = i;
    rank[j] = Infinity;
    parts -= 1;
    for (const k of [i, prev[i]]) {
      if (k < 0) continue;
      rank[k] = pairRank(k);
      if (rank[k] !== Infinity) heap.push(rank[k] * 2 ** 28 + k);
    }
  }
  return parts;
}

class MinHeap {
  constructor() { this.a = new Float64Array(1024); this.size = 0; }

  push(x) {
    if (this.size === this.a.length) { const b = new Float64Array(this.a.length * 2); b.set(this.a); this.a = b; }
    const a = this.a;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= x) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = x;
  }

  pop() {
    const a = this.a;
    const top = a[0];
    const x = a[--this.size];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && a[c + 1] < a[c]) c += 1;
      if (a[c] >= x) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = x;
    return top;
  }
}

/** Tokens of `text`, which the test makes one piece for both encodings' pre-tokenizers. */
export function singlePieceCount(text, ranks) {
  return pieceCount(Buffer.from(text, 'utf8').toString('latin1'), ranks);
}
