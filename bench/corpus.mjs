// Deterministic agent-like text for the benchmarks: no randomness from the clock, so every
// run measures the same work.

export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const words = ('parser lexer token failing test assertion expected received trailing whitespace module ' +
  'function return value error stack frame cargo build wasm binding refactor commit patch').split(' ');

export function sentence(random, length) {
  let out = '';
  while (out.length < length) out += words[Math.floor(random() * words.length)] + (random() < 0.1 ? '. ' : ' ');
  return out.slice(0, length);
}

/** `count` TurnEntry objects of 200–2,000 chars, alternating user and assistant. */
export function history(count, seed = 7) {
  const random = rng(seed);
  return Array.from({ length: count }, (_, i) => ({
    turnIndex: i + 1,
    agentId: 'bench-agent',
    role: i % 2 ? 'assistant' : 'user',
    content: sentence(random, 200 + Math.floor(random() * 1800)),
    createdAt: new Date(1_700_000_000_000 + i * 1000),
  }));
}

export const specs = [
  { name: 'TAS', content: sentence(rng(1), 6000) },
  { name: 'PRD', content: sentence(rng(2), 4000) },
];

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

export const us = (ns) => `${(Number(ns) / 1000).toFixed(1)} µs`;
