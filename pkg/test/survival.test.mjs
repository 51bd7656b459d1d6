// The meters of bench/recall.mjs's `user words` and `file trail` columns (pkg/src/eval/survival.ts, from @devs/context/eval):
// what they read as the user's words and as the agent's writes, and that a request that
// drops a path or a message scores lower than one that keeps them, on a synthetic Claude Code
// session read by the package's own transcript reader, as the bench reads the real ones.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTranscript, providerTurns } from '@devs/context/replay';
import { callWrites, fileTrail, shellWrites, survival, typedPieces, userWords } from '@devs/context/eval';

const line = (o) => JSON.stringify(o);
let uuid = 0;
const user = (content) => line({ type: 'user', uuid: `u${uuid++}`, message: { role: 'user', content } });
const call = (id, name, input) => line({ type: 'assistant', uuid: `a${uuid++}`, message: { id: `m${id}`, role: 'assistant', model: 'claude-x', content: [{ type: 'tool_use', id: `t${id}`, name, input }] } });
const result = (id, text) => user([{ type: 'tool_result', tool_use_id: `t${id}`, content: text }]);
const say = (id, text) => line({ type: 'assistant', uuid: `a${uuid++}`, message: { id: `m${id}`, role: 'assistant', model: 'claude-x', content: [{ type: 'text', text }] } });

// Four model calls: the user's rules (with a reminder the harness added), a write, an edit,
// the user's second message with a rename, and a closing text.
const [session] = parseTranscript([
  user('Use pnpm, never npm.\nKeep the migrations as they are.\n<system-reminder>The todo list is empty.</system-reminder>'),
  call(1, 'Write', { file_path: '/repo/src/a.ts', content: 'export const a = 1;\n' }), result(1, 'File created successfully.'),
  call(2, 'Edit', { file_path: '/repo/src/b.ts', old_string: 'x', new_string: 'y' }), result(2, 'The file has been updated.'),
  user('Now rename b.ts to c.ts.'),
  call(3, 'Bash', { command: 'mv /repo/src/b.ts /repo/src/c.ts' }), result(3, ''),
  say(4, 'Done.'),
].join('\n'), 'synthetic.jsonl');

const leaves = (v, out = []) => {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) leaves(x, out);
  return out;
};

/** Each request's text when a strategy keeps the turns from `keep(t)` on (its own input included). */
function requests(keep) {
  const turns = providerTurns(session, 'anthropic');
  return turns.map((turn, t) => {
    const messages = [];
    turns.forEach((u, k) => {
      if (k < keep(t) || k > t) return;
      messages.push(...u.input);
      if (k < t) messages.push(...u.response, ...u.results);
    });
    return leaves(messages).join('\n');
  });
}

/** The pairs over a session's requests: `[user words kept, pairs, paths kept, pairs]`. */
function meter(texts, stored) {
  const words = userWords(session);
  const trail = fileTrail(session);
  const total = { words: 0, wordsKept: 0, paths: 0, pathsKept: 0 };
  texts.forEach((text, turn) => {
    const r = survival({ words, trail, turn, text, stored });
    for (const k of Object.keys(total)) total[k] += r[k];
  });
  return [total.wordsKept, total.words, total.pathsKept, total.paths];
}

describe('the survival meters', () => {
  it("read the user's words without what the harness injected, and each path at its first write", () => {
    assert.deepEqual(userWords(session), [
      { turn: 0, pieces: ['Use pnpm, never npm.\nKeep the migrations as they are.'], firstLine: 'Use pnpm, never npm.' },
      { turn: 2, pieces: ['Now rename b.ts to c.ts.'], firstLine: 'Now rename b.ts to c.ts.' },
    ]);
    assert.deepEqual(fileTrail(session).map(({ turn, path, action }) => [turn, path, action]), [
      [0, '/repo/src/a.ts', 'write'], [1, '/repo/src/b.ts', 'edit'], [2, '/repo/src/c.ts', 'move'],
    ]);
  });

  it('count every pair kept when every turn is kept', () => {
    // Words: the first message in requests 0–3, the second in 2–3; paths: a.ts after turn 0
    // (requests 1–3), b.ts after turn 1 (2–3), c.ts after turn 2 (3).
    assert.deepEqual(meter(requests(() => 0)), [6, 6, 6, 6]);
  });

  it('count lower when a strategy drops the older turns, and the path and message in them', () => {
    // Each request keeps the turn before its own: the first message is gone from requests 2
    // and 3, a.ts from 2 and 3 (b.ts stays in 3 by the `mv` that names it).
    assert.deepEqual(meter(requests((t) => t - 1)), [4, 6, 4, 6]);
  });

  it("count a message named by a store id only beside its first line, and only if the stored text holds it", () => {
    const texts = requests((t) => t - 1);
    const message = 'Use pnpm, never npm.\nKeep the migrations as they are.';
    const named = texts.map((t, k) => (k >= 2 ? `${t}\n- 7: Use pnpm, never npm.` : t));
    assert.deepEqual(meter(named, () => [`user: ${message}`]).slice(0, 2), [6, 6]);
    assert.deepEqual(meter(texts, () => [`user: ${message}`]).slice(0, 2), [4, 6], 'no first line: not named');
    assert.deepEqual(meter(named, () => ['user: Use pnpm, never npm.']).slice(0, 2), [4, 6], 'the stored text must hold all of it');
  });
});

describe("the user's words", () => {
  it('leave out what a harness writes, of every known agent', () => {
    assert.deepEqual(typedPieces('<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'), []);
    assert.deepEqual(typedPieces('# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>'), []);
    assert.deepEqual(typedPieces('<task>\nfix the login\n</task>\n\n<environment_details>\n# VSCode Visible Files\n</environment_details>'), ['fix the login']);
    assert.deepEqual(typedPieces('Please always provide EXACTLY ONE action in triple backticks, found 2 actions.'), []);
    assert.deepEqual(typedPieces("Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all\n\nuse the old API"), ['use the old API']);
    assert.deepEqual(typedPieces('\n# Files mentioned by the user:\n\n## notes.vtt: /x/notes.vtt\n\n## My request for Codex:\nsummarize it\n'), ['summarize it']);
    assert.deepEqual(typedPieces('first <system-reminder>x</system-reminder> second'), ['first', 'second']);
  });
});

describe("the agent's writes", () => {
  const envelope = (tool_name, args, output = '') => ({ envelope: { action: { tool_name, arguments: args }, observation: { status: 'success', output } } });
  const paths = (c) => callWrites(c).map((w) => `${w.action} ${w.path}`);

  it('read the call inputs of each agent', () => {
    assert.deepEqual(paths(envelope('MultiEdit', { file_path: '/r/a.py', edits: [] })), ['edit /r/a.py']);
    assert.deepEqual(paths(envelope('apply_patch', { input: '*** Begin Patch\n*** Add File: n.ts\n+x\n*** Update File: o.ts\n*** Move to: p.ts\n@@\n*** Delete File: q.ts\n*** End Patch' })),
      ['add n.ts', 'update o.ts', 'delete q.ts', 'move p.ts']);
    assert.deepEqual(paths(envelope('write_to_file', { path: 'src/x.tsx', content: '' })), ['write src/x.tsx']);
    assert.deepEqual(paths(envelope('replace_in_file', { path: 'src/y.tsx', diff: '' })), ['edit src/y.tsx']);
    assert.deepEqual(paths(envelope('str_replace_editor', { command: 'view', path: '/w/a.c' })), []);
    assert.deepEqual(paths(envelope('str_replace_editor', { command: 'str_replace', path: '/w/a.c', old_str: 'a', new_str: 'b' })), ['edit /w/a.c']);
    assert.deepEqual(paths(envelope('write_file', { file_path: 'hello.md', content: '# hi' })), ['write hello.md']);
    assert.deepEqual(paths(envelope('replace', { file_path: 'hello.md', old_string: 'a', new_string: 'b' })), ['edit hello.md']);
    assert.deepEqual(paths(envelope('edit', { search: 'a', replace: 'b' }, '[File: /testbed/src/f.py (10 lines total)]')), ['edit /testbed/src/f.py']);
    assert.deepEqual(paths(envelope('bash', { command: 'create reproduce.py\n' })), ['create reproduce.py']);
    assert.deepEqual(paths(envelope('run_ipython', { code: "create_file('/w/LICENSE')\nwith open('/w/x.txt', 'w') as f: f.write('')" })), ['create /w/LICENSE', 'write /w/x.txt']);
    assert.deepEqual(paths(envelope('Read', { file_path: '/r/a.py' })), []);
  });

  it('read the obvious writes of a shell command, not the text of a heredoc', () => {
    const w = (c) => shellWrites(c).map((x) => `${x.action} ${x.path}`);
    assert.deepEqual(w("cat <<'EOF' > fix.py\nrm -rf /not/a/command\nEOF\npython fix.py"), ['write fix.py']);
    assert.deepEqual(w('cd /repo && sed -i "s/a/b/" src/m.py && git mv a.py b.py; rm -f old.txt'), ['edit src/m.py', 'move a.py', 'move b.py', 'delete old.txt']);
    assert.deepEqual(w('ls -la > /dev/null 2>&1 && grep -n x y.py | tee out.log'), ['write out.log']);
    assert.deepEqual(w('python -c "print(1)" && git diff'), []);
    assert.deepEqual(w("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/x.rs\n@@\n-rm a\n+rm b\n*** End Patch\nEOF"), ['update src/x.rs']);
  });
});
