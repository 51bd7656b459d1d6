// `quality`: one preset of what a compaction keeps, which the rules define (`Quality` in
// crates/rules/src/context/config.rs, ADR 0012). The shell only reads its name and sends its
// place in the rules' list, as it sends every rule option: a number.
import { argumentError } from '../errors/index.js';

/** The presets, in the order of the rules' `QUALITY_NAMES`. */
export const QUALITIES = ['balanced', 'recall'] as const;

/** What a host trades spend for: `'balanced'` (the default) or `'recall'`. */
export type Quality = (typeof QUALITIES)[number];

/** @internal The preset's number for the rules, or undefined for the default. */
export function qualityNumber(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const i = QUALITIES.indexOf(value as Quality);
  if (typeof value !== 'string') throw argumentError(TypeError, field, `must be one of ${QUALITIES.map((q) => `'${q}'`).join(', ')}, got ${typeof value}`);
  if (i < 0) throw argumentError(RangeError, field, `must be one of ${QUALITIES.map((q) => `'${q}'`).join(', ')}, got '${value}'`);
  return i;
}
