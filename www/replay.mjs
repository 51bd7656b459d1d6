// The replay view in a browser: the same parser, rules and chart as `devs-context replay`
// (pkg/dist/replay.mjs), run locally in wasm. Serve the repository root and open
// /www/index.html after `bash scripts/build.sh`. `?sample=PATH&autorun` replays a sample
// at once (the browser test does).
import { DEFAULT_SETTINGS, parseTranscript, render, replay } from '../pkg/dist/replay.mjs';
import { createTokenCounter } from '@devs/context/tokenizers';

const $ = (id) => document.getElementById(id);
const errors = [];
// What the console shows as an error is collected too, for the page's test.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  errors.push(args.map(String).join(' '));
  consoleError(...args);
};
window.addEventListener('error', (e) => errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason?.stack ?? e.reason)));
let dropped = null;

function settings() {
  return {
    ...DEFAULT_SETTINGS,
    budget: Number($('budget').value),
    counterName: $('counter').value,
    thresholdTokens: Number($('threshold').value),
    refreshOn: $('refreshOn').value,
    recentItems: Number($('recentItems').value),
  };
}

async function source() {
  if (dropped) return dropped;
  const file = $('file').files[0];
  if (file) return { name: file.name, text: await file.text() };
  const sample = $('sample').value;
  if (!sample) throw new Error('choose a sample, pick a file or drop one');
  return { name: sample.split('/').pop(), text: await (await fetch(sample)).text() };
}

async function run() {
  const status = $('status');
  try {
    const { name, text } = await source();
    const s = settings();
    const counter = s.counterName === 'heuristic' ? undefined : createTokenCounter(s.counterName);
    const [session] = parseTranscript(text, name);
    status.textContent = `replaying ${session.steps.length} turns…`;
    const result = await replay(session, s, counter, (done, total) => {
      if (done % 10 === 0 || done === total) status.textContent = `replaying… ${done}/${total}`;
    });
    render($('app'), result);
    status.textContent = `${result.turns.length} turns replayed in ${result.ms} ms`;
    status.dataset.done = 'true';
    const out = document.createElement('script');
    out.type = 'application/json';
    out.id = 'result';
    out.textContent = JSON.stringify({ turns: result.turns.map((t) => ({ turn: t.turn, markers: t.markers, ledger: t.ledger })), marks: result.marks, errors });
    document.body.append(out);
  } catch (error) {
    errors.push(String(error?.stack ?? error));
    status.textContent = `error: ${error.message}`;
  }
}

$('settings').addEventListener('submit', (e) => {
  e.preventDefault();
  run();
});
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const file = e.dataTransfer.files[0];
  if (file) {
    dropped = { name: file.name, text: await file.text() };
    drop.textContent = `${file.name} (${file.size} bytes)`;
    run();
  }
});

const params = new URLSearchParams(location.search);
$('status').textContent = 'ready';
if (params.get('sample')) $('sample').value = params.get('sample');
if (params.has('autorun')) run();
