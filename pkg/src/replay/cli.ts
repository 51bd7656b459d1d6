// `devs-context replay <file>`: what would @devs/context do to my agent's sessions?
// Reads a recorded session in its own format, replays it through the package's rules,
// and prints a per-turn table; writes the ledger (JSON Lines) and an HTML report on request.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createTokenCounter } from '@devs/context/tokenizers';
import type { TokenCounter } from '@devs/context';
import {
  DEFAULT_SETTINGS, MARKERS, nativeFormat, parseTranscript, replay, REPLAY_FORMATS, reportHtml, TranscriptFormatError,
  type ReplayFormat, type ReplayResult, type ReplaySession, type ReplaySettings,
} from '@devs/context/replay';
import { UsageError, checkOutputs, escapeControls, readTranscript, writeOutputs } from './cli-io.js';
import { evalMain } from '../eval/command.js';

/** `--format`: the runner's prompt, the transcript's own provider shape, or any format the replay writes. */
const REQUEST_FORMATS: string[] = ['runner', 'native', ...REPLAY_FORMATS];


const HELP = `devs-context replay <file> [options]
devs-context eval <files or folders…> [options]   (see devs-context eval --help)

Replays a recorded agent session through @devs/context's rules and shows, turn by turn,
how many tokens each prompt holds against the budget and what each rule did.

Formats (detected from the content): Claude Code session JSONL, Codex CLI rollout JSONL,
Cline api_conversation_history.json, OpenHands event streams (output.jsonl), SWE-agent
.traj, mini-SWE-agent .traj.json, OpenAI Chat Completions messages, Anthropic Messages,
and SAOP envelope JSONL.

Options:
  --format WHAT          what builds each request: runner (AgentRunner with every seed rule and the
                         bounded option, one prompt string; the default), or ContextManager with the
                         session as provider messages: native (the agent's own provider), ${REPLAY_FORMATS.slice(0, -1).join(', ')}
                         or ${REPLAY_FORMATS.at(-1)}
  --cost                 also print what the input costs with the provider's prompt cache: the share
                         read from the cache and the cost relative to uncached, against the recorded
                         agent's own where the file has its usage (Claude Code, Codex)
  --budget N             the bound on every prompt, in tokens (default 200000)
  --counter NAME         o200k_base, cl100k_base or heuristic (length / 4; the default)
  --threshold N          the context refresh (handoff) threshold, in tokens (default 800000)
  --refresh-on WHAT      what counts toward it: response (the seed's wiring) or context
  --refresh-every N      turns per TAS/PRD reasoning refresh (default 5)
  --recent-share F       the newest turns a compaction keeps whole, as a share of the budget (default 0.1)
  --part-share F         the share of the budget one message, call or output may take (default 0.15)
  --summarizer-share F   the share of the budget a summarizer prompt may take (default 0.4)
  --high-water F         a prompt past this share of the budget is compacted (default 0.75)
  --low-water F          a compaction brings the prompt under this share (default 0.25)
  --session N            for files with several sessions: only the Nth (1-based)
  --ledger FILE          write every turn's ledger record, as JSON Lines
  --html FILE            write a self-contained HTML report with the chart
  --quiet                no per-turn table
  --allow-dropped        exit 0 even when tool results matched no recorded call (exit 1 otherwise)
  --debug                print the stack of a failure too
  -h, --help             this help

Exit status: 0 done; 1 some tool results matched no recorded call; 2 bad input or a failure,
said in one line on stderr. The ledger and the report are written at the end, all or none.

Markers: spec refresh, context refresh, handoff, prune, truncation, masking (mask),
cutting (cut), summary, drop. See docs/guides/replay.md.
`;

/** A flag's number: finite, whole where it must be, and within its range. */
/** The flags that set the manager's shares, by the option each sets. */
const SHARE_FLAGS: Record<string, string> = {
  highWater: '--high-water', lowWater: '--low-water', recentShare: '--recent-share', partShare: '--part-share', summarizerShare: '--summarizer-share',
};

/**
 * A share the manager refuses only together with another (`--low-water` at or above
 * `--high-water`) is found when the replay makes its manager: its error names the option
 * (`options.bounded.lowWater`); the user set a flag, so say the flag.
 */
function asFlagError(error: unknown): never {
  const option = /(?:^|\.)(\w+)$/.exec(String((error as { field?: unknown } | null)?.field ?? ''))?.[1];
  const flag = option === undefined ? undefined : SHARE_FLAGS[option];
  if (flag !== undefined) throw new UsageError(`${flag}: ${(error as Error).message}`);
  throw error;
}

function flagNumber(name: string, value: string | undefined, range: { min: number; max: number; whole?: boolean; above?: boolean }): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const kind = range.whole ? 'a whole number' : 'a number';
  const bounds = `${range.above ? `over ${range.min}` : `from ${range.min.toLocaleString('en-US')}`} to ${range.max.toLocaleString('en-US')}`;
  if (value.trim() === '' || !Number.isFinite(n) || (range.whole && !Number.isInteger(n)) || (range.above ? n <= range.min : n < range.min) || n > range.max) {
    throw new UsageError(`--${name} must be ${kind} ${bounds}, got ${JSON.stringify(value.slice(0, 40))}`);
  }
  return n;
}

function progress(done: number, total: number): void {
  if (total < 50) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round((100 * done) / total)).padStart(3)}% ${done}/${total} turns`;
  if (process.stderr.isTTY) process.stderr.write(`\r${bar}${done === total ? '\n' : ''}`);
  else if (done === total || done % Math.ceil(total / 4) === 0) process.stderr.write(`${bar}\n`);
}

function table(result: ReplayResult): string {
  const { budget } = result.settings;
  const rows = [`turn  ${'prompt tokens'.padStart(13)}  of budget  ${'recorded'.padStart(9)}  rules`];
  for (const t of result.turns) {
    const recorded = t.recorded.inputTokens === undefined ? '' : String(t.recorded.inputTokens);
    const ours = result.compactions.find((c) => c.turn === t.turn);
    const cache = ours ? [`compaction: cache written ${ours.cacheWritten}, invalidated ${ours.cacheInvalidated}`] : [];
    const rules = [...t.markers, ...cache, ...(t.recorded.compaction ? ['RECORDED AGENT COMPACTED'] : []), ...(t.unanswered ? [`${t.unanswered} unanswered call(s)`] : [])];
    rows.push(`${String(t.turn).padStart(4)}  ${String(t.promptTokens).padStart(13)}  ${`${((100 * t.promptTokens) / budget).toFixed(1)}%`.padStart(9)}  ${recorded.padStart(9)}  ${rules.join(', ')}`);
  }
  return rows.join('\n');
}

function summary(result: ReplayResult): string {
  const fired = MARKERS.map((m) => `${m} ${result.counts[m]}`).join(', ');
  const compactions = result.turns.filter((t) => t.recorded.compaction).map((t) => t.turn);
  const recordedAt = compactions.length ? `; the recorded agent compacted before turn(s) ${compactions.join(', ')}` : '';
  const ours = result.turns.filter((t) => t.markers.some((m) => m === 'summary' || m === 'drop' || m === 'prune' || m === 'handoff')).map((t) => t.turn);
  const oursAt = ours.length ? `; ours summarized, dropped, pruned or handed off at turn(s) ${ours.slice(0, 20).join(', ')}${ours.length > 20 ? ', …' : ''}` : '';
  const unmatched = result.session.unmatchedResults;
  const c = result.compactions;
  const sum = (f: (x: (typeof c)[number]) => number) => c.reduce((n, x) => n + f(x), 0);
  const compacted = c.length
    ? `; ${c.length} compaction${c.length === 1 ? '' : 's'}, which wrote ${sum((x) => x.cacheWritten)} tokens to the cache and invalidated ${sum((x) => x.cacheInvalidated)} (the largest ${Math.max(...c.map((x) => x.cacheWritten))} and ${Math.max(...c.map((x) => x.cacheInvalidated))})`
    : '';
  return `${result.session.name} (${result.session.format}): ${result.turns.length} turns in ${result.ms} ms; `
    + `${unmatched} tool result${unmatched === 1 ? '' : 's'} matched no call; `
    + `largest prompt ${result.largestPromptTokens} of ${result.settings.budget} tokens; turns with each rule: ${fired}${recordedAt}${oursAt}${compacted}`;
}

/** The session's input with the prompt cache: ours, and the recorded agent's. */
function costLine(result: ReplayResult): string {
  const { cost } = result;
  const ours = `${result.session.name}: ${cost.cacheShare.toFixed(3)} of request tokens read from the cache; input cost ${cost.relativeCost.toFixed(3)}× uncached`;
  const recorded = cost.recorded
    ? `; the recorded agent: ${cost.recorded.cacheShare.toFixed(3)}, ${cost.recorded.relativeCost.toFixed(3)}× (${cost.recorded.requests} requests with usage)`
    : '; the file has no cache usage of the recorded agent';
  return `cost: ${ours}${recorded}`;
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'eval') return evalMain(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      budget: { type: 'string' }, counter: { type: 'string' }, threshold: { type: 'string' },
      'refresh-on': { type: 'string' }, 'refresh-every': { type: 'string' }, 'recent-share': { type: 'string' },
      'part-share': { type: 'string' }, 'summarizer-share': { type: 'string' }, 'high-water': { type: 'string' },
      'low-water': { type: 'string' }, session: { type: 'string' },
      ledger: { type: 'string' }, html: { type: 'string' }, quiet: { type: 'boolean' }, 'allow-dropped': { type: 'boolean' },
      format: { type: 'string' }, cost: { type: 'boolean' }, debug: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const [command, file] = positionals;
  if (command !== 'replay' || !file) throw new UsageError(`usage: devs-context replay <file> [options] (see --help)`);
  if (positionals.length > 2) throw new UsageError(`one transcript at a time: ${positionals.slice(2).join(' ')} is left over`);
  const counterName = values.counter ?? 'heuristic';
  if (counterName !== 'o200k_base' && counterName !== 'cl100k_base' && counterName !== 'heuristic') {
    throw new UsageError(`--counter must be o200k_base, cl100k_base or heuristic, got ${JSON.stringify(counterName.slice(0, 40))}`);
  }
  const requestFormat = values.format ?? 'runner';
  if (!REQUEST_FORMATS.includes(requestFormat)) throw new UsageError(`--format must be one of ${REQUEST_FORMATS.join(', ')}, got ${JSON.stringify(requestFormat.slice(0, 40))}`);
  const refreshOn = values['refresh-on'] ?? 'response';
  if (refreshOn !== 'response' && refreshOn !== 'context') throw new UsageError(`--refresh-on must be response or context, got ${JSON.stringify(refreshOn.slice(0, 40))}`);
  const settings: ReplaySettings = {
    ...DEFAULT_SETTINGS,
    budget: flagNumber('budget', values.budget, { min: 1000, max: 1e9, whole: true }) ?? DEFAULT_SETTINGS.budget,
    counterName,
    thresholdTokens: flagNumber('threshold', values.threshold, { min: 1, max: 1e12, whole: true }) ?? DEFAULT_SETTINGS.thresholdTokens,
    refreshOn,
    refreshEvery: flagNumber('refresh-every', values['refresh-every'], { min: 1, max: 1e6, whole: true }) ?? DEFAULT_SETTINGS.refreshEvery,
    recentShare: flagNumber('recent-share', values['recent-share'], { min: 0, max: 0.5, above: true }),
    partShare: flagNumber('part-share', values['part-share'], { min: 0, max: 0.25, above: true }),
    summarizerShare: flagNumber('summarizer-share', values['summarizer-share'], { min: 0, max: 1, above: true }),
    highWater: flagNumber('high-water', values['high-water'], { min: 0, max: 1, above: true }),
    lowWater: flagNumber('low-water', values['low-water'], { min: 0, max: 1, above: true }),
  };
  const only = flagNumber('session', values.session, { min: 1, max: 1e6, whole: true });
  // Before anything is read: no output may be the input, or another output.
  checkOutputs(file, [['--ledger', values.ledger], ['--html', values.html]]);
  const text = readTranscript(file);
  let sessions: ReplaySession[];
  try {
    sessions = parseTranscript(text, basename(file));
  } catch (error) {
    if ((error as { code?: unknown })?.code === 'ERR_TRANSCRIPT_FORMAT') throw new UsageError(`${file}: ${(error as Error).message}`);
    throw error;
  }
  if (only !== undefined) {
    if (!sessions[only - 1]) throw new UsageError(`--session ${only}: ${file} holds ${sessions.length} session(s)`);
    sessions = [sessions[only - 1]];
  }
  const empty = sessions.find((s) => s.steps.length === 0);
  if (empty) throw new UsageError(`${file}: ${sessions.length > 1 ? `session ${JSON.stringify(empty.name)} has` : 'has'} no model turn to replay`);
  const counter: TokenCounter | undefined = counterName === 'heuristic' ? undefined : createTokenCounter(counterName);
  const results: ReplayResult[] = [];
  for (const session of sessions) {
    for (const w of session.warnings) process.stderr.write(`warning: ${escapeControls(w, false)}\n`);
    const format = requestFormat === 'native' ? nativeFormat(session.format) : (requestFormat as 'runner' | ReplayFormat);
    const result = await replay(session, { ...settings, format }, counter, progress).catch(asFlagError);
    results.push(result);
    if (!values.quiet) process.stdout.write(`${escapeControls(table(result))}\n`);
    process.stdout.write(`${escapeControls(summary(result))}\n`);
    if (values.cost) process.stdout.write(`${escapeControls(costLine(result))}\n`);
  }
  const outputs: Array<[string, string, string]> = [];
  if (values.ledger) {
    outputs.push(['--ledger', values.ledger, results.flatMap((r) => r.turns.map((t) => `${JSON.stringify({ session: r.session.name, ...t.ledger })}\n`)).join('')]);
  }
  if (values.html) {
    const view = readFileSync(new URL('./replay-view.js', import.meta.url), 'utf8');
    outputs.push(['--html', values.html, reportHtml(results[0], view)]);
  }
  writeOutputs(outputs);
  const dropped = results.reduce((n, r) => n + r.session.unmatchedResults, 0);
  if (dropped > 0 && !values['allow-dropped']) {
    process.stderr.write(`devs-context: ${dropped} tool result${dropped === 1 ? '' : 's'} matched no recorded call and ${dropped === 1 ? 'was' : 'were'} left out of the replay; pass --allow-dropped to accept that\n`);
    return 1;
  }
  return 0;
}

const debug = process.argv.includes('--debug');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // One line, whatever failed: the flag or file it names, and what to do.
    const e = error as { message?: unknown; stack?: unknown; code?: unknown };
    const known = error instanceof UsageError || error instanceof TranscriptFormatError || (typeof e?.code === 'string' && e.code.startsWith('ERR_'));
    const line = known ? String(e.message) : `unexpected failure: ${String(e?.message ?? error)} (run again with --debug for the stack)`;
    process.stderr.write(`devs-context: ${escapeControls(line, false)}\n`);
    if (debug && typeof e?.stack === 'string') process.stderr.write(`${escapeControls(e.stack)}\n`);
    process.exitCode = 2;
  },
);
