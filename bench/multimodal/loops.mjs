// @ts-check
// The scripted agent loops of bench/multimodal.mjs, step by step, in no format (shapes.mjs
// renders each step in each). None is a loop the tests drive: the screenshots are other
// sizes, the steps other mixes, so a default tuned on the tests is measured here on loops
// it never saw. Every step's result opens with its marker (`result of step t`), so a
// request can be searched for the newest output; its image, if any, is distinct per step.
import { jpeg, pdf, png } from '../../pkg/test/media-bytes.mjs';
import { FORMATS } from './shapes.mjs';

/** @typedef {import('./shapes.mjs').Step} Step */

/** A page of `kb` kilobytes that reads as a fetched document or a build log, distinct per `t`. */
const page = (/** @type {number} */ t, /** @type {number} */ kb) => Array.from({ length: Math.ceil((kb * 1024) / 70) }, (_, i) => `${i}: step ${t} reads section ${i % 23} of the review, line ${(i * 7) % 101}.`).join('\n');
const marker = (/** @type {number} */ t) => `result of step ${t}`;

/** What an agent says before a call: a sentence or three of its reasoning, different each step. */
function say(/** @type {number} */ t, /** @type {string} */ doing) {
  const more = ['The diff view is still open.', 'The last click scrolled the list.', 'The review comment box is below the fold.', 'A tooltip covers part of the page.'];
  return `Step ${t}: ${doing}. ${more[t % 4]} ${t % 3 ? 'I will check the result before going on.' : 'Next I look for the file list and the failing check, then the reviewer\'s last comment.'}`;
}

/** Screenshot sizes of desktop computer-use and browser agents (XGA, WXGA, HD+, WXGA+, FHD). */
const SIZES = [[1024, 768], [1366, 768], [1600, 900], [1440, 900], [1920, 1080]];
const shot = (/** @type {number} */ t) => {
  if (t % 5 === 4) return { bytes: jpeg(1000 + t), type: 'image/jpeg' };
  const [w, h] = SIZES[t % SIZES.length];
  return { bytes: png(w, h, 500 + t), type: 'image/png' };
};

/**
 * @typedef {object} Loop
 * @property {string} title
 * @property {string[]} formats   the formats it runs in
 * @property {number} steps
 * @property {(t: number) => Step} step
 */

/** @type {Record<string, Loop>} */
export const LOOPS = {
  computer: {
    title: 'computer use: a click or a key, then a screenshot',
    formats: FORMATS,
    steps: 200,
    step: (t) => {
      const [x, y] = [40 + ((t * 37) % 900), 60 + ((t * 53) % 600)];
      return { t, kind: 'computer', say: say(t, `click at (${x}, ${y})`), name: 'computer', input: { action: 'left_click', coordinate: [x, y], x, y }, text: `${marker(t)}: clicked (${x}, ${y})`, image: shot(t) };
    },
  },
  browser: {
    title: 'browser agent: a page snapshot and a screenshot',
    formats: FORMATS,
    steps: 80,
    step: (t) => (t % 2
      ? { t, kind: 'call', say: say(t, 'read the page'), name: 'browser_snapshot', input: { url: `https://review.example.com/pr/${t}` }, text: `${marker(t)}\n${page(t, 4 + (t % 5))}` }
      : { t, kind: 'call', say: say(t, 'take a screenshot'), name: 'browser_screenshot', input: { fullPage: false }, text: `${marker(t)}: the review page`, image: shot(t) }),
  },
  pdf: {
    title: 'documents: a PDF attached, then PDFs read by a tool',
    formats: FORMATS,
    steps: 30,
    step: (t) => (t === 0
      ? { t, kind: 'attach', say: '', name: 'attach', input: {}, text: `${marker(t)}: the spec, attached. Check the review against it.`, pdf: pdf(2000, true) }
      : { t, kind: 'call', say: say(t, `read review-${t}.pdf`), name: 'read_pdf', input: { path: `review-${t}.pdf` }, text: `${marker(t)}: review-${t}.pdf`, pdf: pdf(2000 + t, t % 2 === 0) }),
  },
  mcp: {
    title: 'MCP: 24 KB tool outputs and screenshots from an MCP browser',
    formats: FORMATS,
    steps: 60,
    step: (t) => (t % 3 === 2
      ? { t, kind: 'call', say: say(t, 'screenshot through the MCP server'), name: 'playwright_screenshot', input: { element: 'main' }, text: `${marker(t)}: main element`, image: shot(t) }
      : { t, kind: 'mcp', say: say(t, 'ask the MCP server'), name: 'browser_network_requests', input: { filter: `pr/${t}` }, text: `${marker(t)}\n${page(t, 24)}` }),
  },
  server: {
    title: "the providers' own tools: web fetch and search, code execution, shell, patches",
    formats: FORMATS,
    steps: 60,
    step: (t) => {
      switch (t % 4) {
        case 0: return { t, kind: 'fetch', say: say(t, 'fetch the docs'), name: 'web_fetch', input: { url: `https://docs.example.com/review/${t}` }, text: `${marker(t)}\n${page(t, 30)}` };
        case 1: return { t, kind: 'search', say: say(t, 'search the web'), name: 'web_search', input: { query: `review check failure ${t}` }, text: `${marker(t)}\n${page(t, 10)}` };
        case 2: return { t, kind: 'execute', say: say(t, 'run the tests'), name: 'bash', input: { command: `cargo test --test review_${t}` }, text: `${marker(t)}\n${page(t, 16)}` };
        default: return { t, kind: 'patch', say: say(t, 'patch the parser'), name: 'apply_patch', input: { path: `src/review_${t}.rs`, diff: page(t, 8) }, text: `${marker(t)}: patched src/review_${t}.rs` };
      }
    },
  },
  writes: {
    title: 'large call inputs: files of 100 to 180 KB written in one call',
    formats: FORMATS,
    steps: 30,
    step: (t) => (t % 3 === 0
      ? { t, kind: 'call', say: say(t, 'write the generated module'), name: 'write_file', input: { file_path: `src/generated_${t}.ts`, content: 'export const table = [\n' + '  { id: 1, name: "row", weight: 0.5 },\n'.repeat(2_600 + 70 * t) + '];\n' }, text: `${marker(t)}: written` }
      : { t, kind: 'call', say: say(t, 'read a file'), name: 'read_file', input: { path: `src/review_${t}.ts` }, text: `${marker(t)}\n${page(t, 3)}` }),
  },
  compaction: {
    title: "the providers' own compaction: a compaction every 20 steps",
    formats: ['anthropic', 'openai-responses'],
    steps: 60,
    step: (t) => (t % 20 === 19
      ? { t, kind: 'compaction', say: `Continuing from the summary (step ${t}).`, name: 'compaction', input: {}, text: `Summary ${t}: the review check fails on empty headers; the fix is in src/parse.rs.`, opaque: `Ez${Buffer.from(page(t, 2)).toString('base64')}` }
      : { t, kind: 'shell', say: say(t, 'run a build'), name: 'bash', input: { command: `make step${t}` }, text: `${marker(t)}\n${page(t, 6)}` }),
  },
};

/** The step's marker, which its result's text starts with. */
export { marker };
