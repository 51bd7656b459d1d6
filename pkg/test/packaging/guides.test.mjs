// The manual in docs/: every `ts` block of the guides (docs/guides/*.md) compiles as
// pasted, against the packed package, with `strict` and `skipLibCheck: false`, and every
// block that names no value of the host's (no `declare`) also runs; every `js` block runs
// as CommonJS. Each guide opens with its title and a one-line summary and is listed in
// docs/README.md and the README; no page names an Anthropic model the installed SDK warns
// about; and every relative link of the README and docs/ (the generated API reference
// aside) reaches a file git does not ignore, and a heading where it names one.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { deprecatedAnthropicModels, repoRoot, runAsync } from './harness.mjs';
import { docsCompiled, errorsOf, guideBlocks, guides } from './docs-code.mjs';

const guidesDir = join(repoRoot, 'docs/guides');
const blocks = guideBlocks();
const tsBlocks = blocks.filter((b) => b.lang === 'ts');
const jsBlocks = blocks.filter((b) => b.lang === 'js');

/** Every markdown file of the README and docs/, but the API reference TypeDoc generates. */
function pages() {
  const out = [join(repoRoot, 'README.md')];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (relative(repoRoot, path) !== join('docs', 'api')) walk(path);
      } else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk(join(repoRoot, 'docs'));
  return out;
}

/** Markdown without its fenced code blocks, which hold no links. */
const prose = (text) => text.replace(/^```[\s\S]*?^```$/gm, '');

/** The anchors GitHub gives a page's headings (github-slugger), and the ids written out. */
function anchors(text) {
  const seen = new Map();
  const out = new Set();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const plain = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = plain.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(id);
  return out;
}

describe('the guides', () => {
  it('are there, each with its title and a one-line summary, and listed in docs/README.md and the README', () => {
    assert.ok(guides.length >= 8, `${guides.length} guides`);
    const index = readFileSync(join(repoRoot, 'docs/README.md'), 'utf8');
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    for (const file of guides) {
      const text = readFileSync(join(guidesDir, file), 'utf8');
      assert.match(text, /^# \S[^\n]*\n\n(?!```)[^\n#|>-][^\n]*\n\n/, `${file} opens with its title, then a summary of one line`);
      assert.ok(index.includes(`(guides/${file})`), `docs/README.md links ${file}`);
      assert.ok(readme.includes(`(docs/guides/${file})`), `the README links ${file}`);
    }
  });

  it('have TypeScript blocks', () => {
    assert.ok(tsBlocks.length >= 15, `${tsBlocks.length} blocks`);
  });

  it('pass the AI SDK its system prompt in `system`, not as a message', () => {
    for (const b of tsBlocks.filter((x) => /\bgenerateText\(\{[^}]*\bmessages\b/.test(x.code))) {
      assert.match(b.code, /generateText\(\{[^}]*\bsystem\b/, `${b.file} line ${b.line}`);
    }
  });

  it('name no Anthropic model the installed SDK warns is deprecated, nor do the framework pages', () => {
    const deprecated = deprecatedAnthropicModels();
    for (const path of pages()) {
      const text = readFileSync(path, 'utf8');
      for (const model of deprecated) {
        assert.ok(!new RegExp(`['(:]${model.replace(/[.]/g, '\\.')}['),]`).test(text), `${relative(repoRoot, path)} names ${model}`);
      }
    }
  });

  it('every relative link of the README and docs/ reaches a file the repository holds, and its heading', () => {
    const broken = [];
    const reached = new Map();
    for (const path of pages()) {
      const text = readFileSync(path, 'utf8');
      for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file, anchor] = target.split('#');
        const to = file === '' ? path : join(dirname(path), decodeURIComponent(file));
        const where = `${relative(repoRoot, path)}: ${target}`;
        reached.set(relative(repoRoot, to), where);
        if (!existsSync(to)) {
          broken.push(`${where} (no such file)`);
        } else if (anchor && to.endsWith('.md') && !anchors(readFileSync(to, 'utf8')).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    // A file the build writes (docs/api/: ADR 0010) is not there for a reader of the repository.
    const ignored = spawnSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: repoRoot, input: [...reached.keys()].join('\n'), encoding: 'utf8' });
    for (const file of ignored.stdout.split('\n').filter(Boolean)) broken.push(`${reached.get(file)} (a file git ignores)`);
    assert.deepEqual(broken, []);
  });
});

describe('the guides\' code', () => {
  let dir;
  before(async () => {
    ({ dir } = await docsCompiled('lockfile'));
  });

  /** The blocks compiled against `set` (docs-code.mjs, with the README's), naming the guide and line of each error. */
  async function compiles(set) {
    const errors = errorsOf((await docsCompiled(set)).errors, 'src/guides/');
    if (errors) {
      const byName = new Map(tsBlocks.map((b) => [b.name, b]));
      const lines = errors.replace(/src\/guides\/([a-z0-9-]+-\d+)\.mts\((\d+),/g, (all, name, at) => {
        const b = byName.get(name);
        return b ? `docs/guides/${b.file} line ${b.line + Number(at)} (${name}, line ${at},` : all;
      });
      assert.fail(lines);
    }
  }

  it('every ts block compiles as pasted (tsc --strict, skipLibCheck false), against the lockfile\'s SDKs', () => compiles('lockfile'));

  it('every ts block compiles against the newest releases of the SDKs too (openai, @anthropic-ai/sdk, ai)', () => compiles('newest'));

  it('every ts block compiles against the oldest ai the peer range takes (6.0.0)', () => compiles('oldest-ai'));

  for (const b of tsBlocks.filter((x) => !/^declare /m.test(x.code))) {
    it(`${b.name} (docs/guides/${b.file} line ${b.line}) runs`, async () => {
      await runAsync('node', [`out/guides/${b.name}.mjs`], dir);
    });
  }

  for (const b of jsBlocks) {
    it(`${b.name} (docs/guides/${b.file} line ${b.line}) runs as CommonJS`, async () => {
      await runAsync('node', [`cjs/${b.name}.cjs`], dir);
    });
  }
});
