// `devs-context eval <files or folders…>`: the eval of @devs/context/eval from the command
// line. Part of the CLI bundle (replay/cli.ts dispatches here); the engine is imported from
// the package's own entry, as the replay's is.
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseTranscript } from '@devs/context/replay';
import type { ReplaySession } from '@devs/context/replay';
import { checkOptions, evaluate, renderTables, reportHtml, STRATEGIES } from '@devs/context/eval';
import type { EvalOptions } from '@devs/context/eval';
import { checkOutputs, escapeControls, readTranscript, UsageError, writeOutputs } from '../replay/cli-io.js';

export const EVAL_HELP = `devs-context eval <files or folders…> [options]

Replays each recorded session through @devs/context's ContextManager and its peers, at each
budget, and measures every request the same way: recall of what the agent goes on to use
(long-range, and recoverable from ours' store), the user's words and the file trail kept,
the cache share, the spend priced by the cache's clock, requests over the budget or invalid,
compactions, build time. Every format \`devs-context replay\` reads, detected from the
content; a folder means every session in it. Each session is read once.

Options:
  --budget N,N           budgets in tokens (default 200000,50000)
  --format WHAT          the request format of ours: anthropic (default), openai-chat, openai-responses
  --counter NAME         o200k_base (default) or cl100k_base: the exact counter every strategy and the measure use
  --strategies A,B       of ${STRATEGIES.map((s) => s.id).join(', ')}
                         (default ours,auto-compact,langchain-summarization,langchain-context-editing,ai-sdk-prune)
  --ttl T                the cache's lifetime after a read or write: 5m (default), 1h, none
  --prices P             anthropic (reads 0.1×, writes 1.25×, 2× with --ttl 1h; the default), openai
                         (GPT-5 family: cached input 0.1×, writes 1×), or r,w,i (read, write, input prices)
  --json FILE            write every figure, per request, as JSON
  --html FILE            write a self-contained HTML report with the charts
  --progress             a progress bar on stderr even when it is not a terminal
  -h, --help             this help

Sessions without timestamps are priced with no expiry, and the output says so. See docs/guides/eval.md.

Exit status: 0 done; 1 a strategy threw (named in a note, its runs left out of the figures);
2 bad input or a failure, said in one line on stderr.
`;

/** A flag's error: a RangeError or TypeError naming the flag, which the CLI prints in one line. */
function flagError(error: unknown): never {
  if (error instanceof RangeError || error instanceof TypeError) {
    const FLAGS: Record<string, string> = { budgets: '--budget', counter: '--counter', strategies: '--strategies', format: '--format', ttl: '--ttl', prices: '--prices' };
    const message = error.message.replace(/^options\.(\w+)(\[\d+\])?/, (_, key: string, index = '') => `${FLAGS[key] ?? `options.${key}`}${index}`);
    const out = error instanceof RangeError ? new RangeError(message) : new TypeError(message);
    throw Object.assign(out, { code: 'ERR_EVAL_OPTION' });
  }
  throw error;
}

/** `--budget 200000,50000` as numbers, each checked. */
function budgets(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((v) => {
    const n = Number(v.trim());
    if (v.trim() === '' || !Number.isInteger(n) || n < 1000 || n > 1e9) {
      throw Object.assign(new RangeError(`--budget: expected whole numbers of tokens from 1,000 to 1,000,000,000, comma-separated, got ${JSON.stringify(value.slice(0, 40))}`), { code: 'ERR_EVAL_OPTION' });
    }
    return n;
  });
}

/** The session files of `paths`: a folder gives each file in it that is a session, sorted. */
function sessionsOf(paths: string[]): ReplaySession[] {
  const out: ReplaySession[] = [];
  for (const path of paths) {
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      throw new UsageError(`${path}: no such file or folder`);
    }
    if (!folder) {
      out.push(...parse(path, true));
      continue;
    }
    const files = readdirSync(path, { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort();
    const found = files.flatMap((f) => parse(join(path, f), false));
    if (!found.length) throw new UsageError(`${path}: no session in this folder`);
    out.push(...found);
  }
  return out;
}

/** The sessions of one file; in a folder, a file that is no session is skipped with a note. */
function parse(file: string, named: boolean): ReplaySession[] {
  try {
    return parseTranscript(readTranscript(file), basename(file)).filter((s) => s.steps.length > 0);
  } catch (error) {
    if (named) {
      if ((error as { code?: unknown })?.code === 'ERR_TRANSCRIPT_FORMAT') throw new UsageError(`${file}: ${(error as Error).message}`);
      throw error;
    }
    process.stderr.write(`skipped ${escapeControls(file, false)}: not a session this reads\n`);
    return [];
  }
}

function progressBar(force: boolean): EvalOptions['onProgress'] {
  if (!force && !process.stderr.isTTY) return undefined;
  return (done, total, label) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`.slice(0, 120);
    process.stderr.write(process.stderr.isTTY ? `\r\u001b[K${bar}${done === total ? '\n' : ''}` : `${bar}\n`);
  };
}

/** `devs-context eval …`: 0 done, 1 a strategy failed, else a thrown error (the CLI prints it in one line and exits 2). */
export async function evalMain(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      budget: { type: 'string' }, format: { type: 'string' }, counter: { type: 'string' }, strategies: { type: 'string' },
      ttl: { type: 'string' }, prices: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' },
      progress: { type: 'boolean' }, debug: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(EVAL_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('usage: devs-context eval <files or folders…> [options] (see --help)');
  const options: EvalOptions = {
    budgets: budgets(values.budget),
    counter: values.counter as EvalOptions['counter'],
    strategies: values.strategies?.split(',').map((s) => s.trim()),
    format: values.format as EvalOptions['format'],
    ttl: values.ttl,
    prices: values.prices,
    onProgress: progressBar(values.progress === true),
  };
  try {
    checkOptions(options);
  } catch (error) {
    flagError(error);
  }
  for (const p of positionals) checkOutputs(p, [['--json', values.json], ['--html', values.html]]);
  const sessions = sessionsOf(positionals);
  const result = await evaluate(sessions, options).catch(flagError);
  process.stdout.write(escapeControls(renderTables(result)));
  const outputs: Array<[string, string, string]> = [];
  if (values.json) outputs.push(['--json', values.json, `${JSON.stringify(result)}\n`]);
  if (values.html) outputs.push(['--html', values.html, reportHtml(result)]);
  writeOutputs(outputs);
  return result.strategies.some((x) => x.failed !== undefined) ? 1 : 0;
}
