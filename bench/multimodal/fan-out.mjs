// The fan-out loops of bench/multimodal.mjs (issue 49 item 1), a section of their own: an
// agent that issues, turn after turn, a fan-out of parallel reads, each output under its
// share (`partShare`) but too many together for the budget (pkg/test/fan-out.mjs: 20 of
// 8 KB, 40 of 4 KB and 60 of 2 KB at 20,000; 30 of 32 KB at 200,000), in every format,
// through ContextManager with the stand-in summarizer of every strategy. Each request is
// billed as the provider bills it and checked against its rules.
//
// Columns, per format and fan-out:
//   ran       builds that went through, of those the loop asks (a refused build ends the loop)
//   largest   the largest request as billed, against the budget;  over: requests past it
//   bad       requests the provider would refuse
//   newest    requests holding every output of the newest turn by its first lines
//   shown     the least and the most of an output of the newest turn the requests show, in characters
import { FAN_OUTS, fanMarker, fanOut } from '../../pkg/test/fan-out.mjs';
import { PROVIDER } from '../../pkg/test/media-loops.mjs';
import { fakeVscode } from '../../pkg/test/provider-sessions.mjs';
import { PROBLEMS } from '../../pkg/test/validity.mjs';
import { bill } from './measure.mjs';
import { FORMATS } from './shapes.mjs';
import { contextManager } from './strategies.mjs';

const TASK = 'Read every module of the project and report what each exports.';

/** Every string `value` holds, class instances' too. */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/** One loop of `turns` fan-outs in `format`: a row per request. */
async function loop(format, { n, kb, budget }, turns) {
  const strategy = contextManager({ format, budget, system: 'You are a coding agent.', vscode: fakeVscode });
  const task = format === 'vscode' ? fakeVscode.LanguageModelChatMessage.User(TASK) : format === 'gemini' ? { role: 'user', parts: [{ text: TASK }] } : { role: 'user', content: TASK };
  strategy.append([task]);
  const requests = [];
  let refused = null;
  for (let t = 0; t < turns; t++) {
    strategy.append(fanOut(format, t, n, kb, fakeVscode));
    let request;
    try {
      ({ request } = await strategy.build());
    } catch (error) {
      refused = `${error.constructor.name}: ${error.message.slice(0, 80)}`;
      break;
    }
    const billed = bill(request, PROVIDER[format]);
    strategy.usage(billed.tokens);
    const texts = strings(request.messages);
    const shown = Array.from({ length: n }, (_, k) => texts.find((s) => s.startsWith(`${fanMarker(t, k)}\n`))?.length ?? 0);
    requests.push({ tokens: billed.tokens, invalid: PROBLEMS[format](request).length > 0, newest: shown.every((s) => s > 0), shown });
  }
  strategy.free();
  return { requests, refused };
}

/** The section's lines: a table per fan-out, then its goal. */
export async function fanOutSection({ turns = 4 } = {}) {
  const lines = ['', `### Fan-out loops: ${turns} turns of parallel reads, each output under its share, ContextManager in every format`, ''];
  const columns = ['format', 'fan-out', 'ran', 'largest', 'over', 'bad', 'newest', 'shown'];
  lines.push(`| ${columns.join(' | ')} |`, `|${columns.map((c, i) => (i < 2 ? '---' : '--:')).join('|')}|`);
  let runs = 0;
  let complete = 0;
  for (const fan of FAN_OUTS) {
    for (const format of FORMATS) {
      const { requests: q, refused } = await loop(format, fan, turns);
      process.stderr.write(`fan-out ${fan.n}×${fan.kb} KB ${format}: ${q.length} of ${turns}${refused ? ` (${refused})` : ''}\n`);
      runs += 1;
      const ok = q.length === turns && q.every((x) => x.tokens <= fan.budget && !x.invalid && x.newest);
      if (ok) complete += 1;
      const largest = q.length ? Math.max(...q.map((x) => x.tokens)) : 0;
      const shown = q.flatMap((x) => x.shown);
      lines.push(`| ${[
        format,
        `${fan.n} × ${fan.kb} KB at ${fan.budget / 1000}k`,
        `${q.length} of ${turns}`,
        q.length ? `${largest.toLocaleString('en')} (${(largest / fan.budget).toFixed(2)}×)` : '—',
        q.filter((x) => x.tokens > fan.budget).length,
        q.filter((x) => x.invalid).length,
        `${q.filter((x) => x.newest).length} of ${q.length}`,
        shown.length ? `${Math.min(...shown).toLocaleString('en')}–${Math.max(...shown).toLocaleString('en')}` : '—',
      ].join(' | ')} |`);
    }
  }
  lines.push('', `- ${complete === runs ? 'met' : 'NOT MET'}: ${complete} of ${runs} fan-out loops ran to their end within the budget, valid, every output of the newest turn in each request by its first lines`);
  return lines;
}
