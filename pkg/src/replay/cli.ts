// `devs-context replay <file>`: what would @devs/context do to my agent's sessions?
// Reads a recorded session in its own format, replays it through the package's rules,
// and prints a per-turn table; writes the ledger (JSON Lines) and an HTML report on request.
import { closeSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { createTokenCounter } from '@devs/context/tokenizers';
import type { TokenCounter } from '@devs/context';
import {
  DEFAULT_SETTINGS, MARKERS, nativeFormat, parseTranscript, replay, reportHtml, TranscriptFormatError,
  type ReplayFormat, type ReplayResult, type ReplaySession, type ReplaySettings,
} from '@devs/context/replay';

const REQUEST_FORMATS = ['runner', 'native', 'anthropic', 'openai-chat', 'openai-responses', 'ai-sdk'];

const MAX_FILE = 1024 ** 3;
const MAX_RECORD = 64 * 1024 ** 2;

const HELP = `devs-context replay <file> [options]

Replays a recorded agent session through @devs/context's rules and shows, turn by turn,
how many tokens each prompt holds against the budget and what each rule did.

Formats (detected from the content): Claude Code session JSONL, Codex CLI rollout JSONL,
Cline api_conversation_history.json, OpenHands event streams (output.jsonl), SWE-agent
.traj, mini-SWE-agent .traj.json, OpenAI Chat Completions messages, Anthropic Messages,
and SAOP envelope JSONL.

Options:
  --format WHAT          what builds each request: runner (AgentRunner with every seed rule and the
                         bounded option, one prompt string; the default), or ContextManager with the
                         session as provider messages: native (the agent's own provider), anthropic,
                         openai-chat, openai-responses or ai-sdk
  --cost                 also print what the input costs with the provider's prompt cache: the share
                         read from the cache and the cost relative to uncached, against the recorded
                         agent's own where the file has its usage (Claude Code, Codex)
  --budget N             the bound on every prompt, in tokens (default 200000)
  --counter NAME         o200k_base, cl100k_base or heuristic (length / 4; the default)
  --threshold N          the context refresh (handoff) threshold, in tokens (default 800000)
  --refresh-on WHAT      what counts toward it: response (the seed's wiring) or context
  --refresh-every N      turns per TAS/PRD reasoning refresh (default 5)
  --recent-share F       the newest turns a compaction keeps whole, as a share of the budget (default 0.2)
  --part-share F         the share of the budget one message, call or output may take (default 0.15)
  --summarizer-share F   the share of the budget a summarizer prompt may take (default 0.4)
  --session N            for files with several sessions: only the Nth (1-based)
  --ledger FILE          write every turn's ledger record, as JSON Lines
  --html FILE            write a self-contained HTML report with the chart
  --quiet                no per-turn table
  --allow-dropped        exit 0 even when tool results matched no recorded call (exit 1 otherwise)
  -h, --help             this help

Markers: spec refresh, context refresh, handoff, prune, truncation, masking (mask),
cutting (cut), summary, drop. See the README, "Replay your own sessions".
`;

class UsageError extends Error {}

function number(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(value)}`);
  return n;
}

/** The file's text, refused before reading when it is too large to replay. */
function readTranscript(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (size > MAX_FILE) throw new UsageError(`${file} is ${(size / 1024 ** 3).toFixed(2)} GB: over the 1 GB a replay reads`);
  // A single record over 64 MB is refused from its length, before any JSON parse.
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let run = 0;
    let line = 1;
    let bytes: number;
    let position = 0;
    while ((bytes = readSync(fd, chunk, 0, chunk.length, position)) > 0) {
      position += bytes;
      for (let i = 0; i < bytes; i++) {
        if (chunk[i] === 10) {
          run = 0;
          line++;
        } else if (++run > MAX_RECORD) {
          throw new UsageError(`${file}: the record on line ${line} is over 64 MB; a replay reads records of at most 64 MB`);
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return readFileSync(file, 'utf8');
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
    const rules = [...t.markers, ...(t.recorded.compaction ? ['RECORDED AGENT COMPACTED'] : []), ...(t.unanswered ? [`${t.unanswered} unanswered call(s)`] : [])];
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
  return `${result.session.name} (${result.session.format}): ${result.turns.length} turns in ${result.ms} ms; `
    + `${unmatched} tool result${unmatched === 1 ? '' : 's'} matched no call; `
    + `largest prompt ${result.largestPromptTokens} of ${result.settings.budget} tokens; turns with each rule: ${fired}${recordedAt}${oursAt}`;
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
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      budget: { type: 'string' }, counter: { type: 'string' }, threshold: { type: 'string' },
      'refresh-on': { type: 'string' }, 'refresh-every': { type: 'string' }, 'recent-share': { type: 'string' },
      'part-share': { type: 'string' }, 'summarizer-share': { type: 'string' }, session: { type: 'string' },
      ledger: { type: 'string' }, html: { type: 'string' }, quiet: { type: 'boolean' }, 'allow-dropped': { type: 'boolean' },
      format: { type: 'string' }, cost: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return positionals.length === 0 && !values.help ? 2 : 0;
  }
  const [command, file] = positionals;
  if (command !== 'replay' || !file) throw new UsageError(`usage: devs-context replay <file> [options] (see --help)`);
  const counterName = values.counter ?? 'heuristic';
  let counter: TokenCounter | undefined;
  if (counterName === 'o200k_base' || counterName === 'cl100k_base') counter = createTokenCounter(counterName);
  else if (counterName !== 'heuristic') throw new UsageError(`--counter must be o200k_base, cl100k_base or heuristic, got ${JSON.stringify(counterName)}`);
  const requestFormat = values.format ?? 'runner';
  if (!REQUEST_FORMATS.includes(requestFormat)) throw new UsageError(`--format must be one of ${REQUEST_FORMATS.join(', ')}, got ${JSON.stringify(requestFormat)}`);
  const refreshOn = values['refresh-on'] ?? 'response';
  if (refreshOn !== 'response' && refreshOn !== 'context') throw new UsageError(`--refresh-on must be response or context, got ${JSON.stringify(refreshOn)}`);
  const settings: ReplaySettings = {
    ...DEFAULT_SETTINGS,
    budget: number('budget', values.budget, DEFAULT_SETTINGS.budget) as number,
    counterName,
    thresholdTokens: number('threshold', values.threshold, DEFAULT_SETTINGS.thresholdTokens) as number,
    refreshOn,
    refreshEvery: number('refresh-every', values['refresh-every'], DEFAULT_SETTINGS.refreshEvery) as number,
    recentShare: number('recent-share', values['recent-share']),
    partShare: number('part-share', values['part-share']),
    summarizerShare: number('summarizer-share', values['summarizer-share']),
  };
  const text = readTranscript(file);
  let sessions: ReplaySession[] = parseTranscript(text, basename(file));
  if (values.session !== undefined) {
    const n = number('session', values.session) as number;
    if (!sessions[n - 1]) throw new UsageError(`--session ${n}: ${file} holds ${sessions.length} session(s)`);
    sessions = [sessions[n - 1]];
  }
  const results: ReplayResult[] = [];
  for (const session of sessions) {
    for (const w of session.warnings) process.stderr.write(`warning: ${w}\n`);
    const format = requestFormat === 'native' ? nativeFormat(session.format) : (requestFormat as 'runner' | ReplayFormat);
    const result = await replay(session, { ...settings, format }, counter, progress);
    results.push(result);
    if (!values.quiet) process.stdout.write(`${table(result)}\n`);
    process.stdout.write(`${summary(result)}\n`);
    if (values.cost) process.stdout.write(`${costLine(result)}\n`);
  }
  if (values.ledger) {
    writeFileSync(values.ledger, results.flatMap((r) => r.turns.map((t) => `${JSON.stringify({ session: r.session.name, ...t.ledger })}\n`)).join(''));
  }
  if (values.html) {
    const view = readFileSync(new URL('./replay-view.js', import.meta.url), 'utf8');
    writeFileSync(values.html, reportHtml(results[0], view));
  }
  const dropped = results.reduce((n, r) => n + r.session.unmatchedResults, 0);
  if (dropped > 0 && !values['allow-dropped']) {
    process.stderr.write(`devs-context: ${dropped} tool result${dropped === 1 ? '' : 's'} matched no recorded call and ${dropped === 1 ? 'was' : 'were'} left out of the replay; pass --allow-dropped to accept that\n`);
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof TranscriptFormatError || (error as { code?: string })?.code?.startsWith('ERR_');
    process.stderr.write(`devs-context: ${known ? (error as Error).message : (error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
