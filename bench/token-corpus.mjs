
// The token-counting benchmark's corpus. Deterministic ~4 MB "agent-like" corpus: prose, TS and Rust code, JSON tool
// output, shell/log output, diffs, CJK, emoji, long whitespace runs.
// Returns { chunks: string[], whole: string }. Chunks are 1-50 KB "turns".

function mulberry32(seed) {
  return function () {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the of and to in is that it for as with was on be by this are from or have an not but at which ' +
  'function return value error file path token model agent request response tool output input string number ' +
  'config build test run install package module import export const let type interface async await promise ' +
  'cache memory buffer stream chunk parse encode decode count limit budget context window message user assistant ' +
  'system prompt repository commit branch merge conflict review change update delete create read write ' +
  'however therefore because although meanwhile performance latency throughput benchmark measure result ' +
  'implementation approach design architecture server client network timeout retry handler callback event ' +
  'Unicode whitespace regex pattern surrogate emoji character byte vocabulary merge rank ' +
  "don't can't it's we're they've I'll you'd isn't won't").split(' ');
const IDENTS = ['tokenCount', 'maxTokens', 'contextWindow', 'fetchResponse', 'parseJson', 'HttpClient', 'BPEEncoder',
  'user_id', 'request_body', 'handle_event', 'MAX_RETRIES', 'encodeOrdinary', 'readFileSync', 'toolCallId',
  'messageHistory', 'SessionManager', 'isWithinLimit', 'byte_pair_merge', 'VocabTable', 'agentLoop', 'x', 'i', 'idx'];
const CJK_ZH = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处府理';
const CJK_JA = 'これはテストです。日本語の文章を生成します。トークナイザーの速度を測定するために、ひらがなとカタカナと漢字を混ぜて使います。エージェントがファイルを読み込み、結果を返しました。';
const EMOJI = ['😀', '🚀', '✅', '❌', '🔥', '👍🏽', '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵', '🇺🇸', '⚠️', '✨', '🎉', '🧪', '💡', '❤️', '🤖', '📦', '🐛'];

function gen(seed = 42, targetBytes = 4 * 1024 * 1024) {
  const r = mulberry32(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));

  const sentence = () => {
    const n = int(5, 22);
    const w = [];
    for (let i = 0; i < n; i++) {
      let x = pick(WORDS);
      if (r() < 0.05) x = String(int(0, 99999));
      if (r() < 0.03) x = '`' + pick(IDENTS) + '`';
      if (r() < 0.02) x = pick(EMOJI);
      w.push(x);
    }
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return w.join(' ') + pick(['.', '.', '.', '?', '!', ':', ';']);
  };
  const prose = () => {
    const paras = int(1, 6), out = [];
    for (let p = 0; p < paras; p++) {
      const s = [];
      for (let i = int(2, 8); i > 0; i--) s.push(sentence());
      let para = s.join(' ');
      if (r() < 0.2) para = '- ' + para;
      if (r() < 0.1) para = '## ' + sentence().slice(0, -1);
      out.push(para);
    }
    return out.join('\n\n') + '\n';
  };
  const tsCode = () => {
    const out = [];
    for (let f = int(1, 5); f > 0; f--) {
      const name = pick(IDENTS);
      out.push(`/** ${sentence()} */`);
      out.push(`export async function ${name}${f}(input: string, opts: { max?: number } = {}): Promise<number> {`);
      for (let l = int(3, 15); l > 0; l--) {
        const ind = '  '.repeat(int(1, 4));
        out.push(ind + pick([
          `const ${pick(IDENTS)} = await ${pick(IDENTS)}(input, ${int(0, 4096)});`,
          `if (${pick(IDENTS)} > opts.max ?? ${int(1, 128000)}) { throw new Error("${sentence()}"); }`,
          `for (let i = 0; i < ${pick(IDENTS)}.length; i++) ${pick(IDENTS)} += i * 0x${int(0, 65535).toString(16)};`,
          `// TODO(${pick(['alice', 'bob', 'carol'])}): ${sentence()}`,
          `return ${pick(IDENTS)}.map((x) => x.${pick(IDENTS)}).filter(Boolean).length;`,
          `console.log(\`[${pick(IDENTS)}] \${${pick(IDENTS)}} -> \${JSON.stringify(${pick(IDENTS)})}\`);`,
        ]));
      }
      out.push('}', '');
    }
    return '```ts\n' + out.join('\n') + '```\n';
  };
  const rustCode = () => {
    const out = [];
    for (let f = int(1, 4); f > 0; f--) {
      out.push(`/// ${sentence()}`);
      out.push(`pub fn ${pick(IDENTS).toLowerCase()}_${f}(bytes: &[u8], vocab: &HashMap<Vec<u8>, u32>) -> Result<usize, Error> {`);
      for (let l = int(3, 12); l > 0; l--) {
        const ind = '    '.repeat(int(1, 3));
        out.push(ind + pick([
          `let ${pick(IDENTS).toLowerCase()} = bytes.iter().filter(|&&b| b == b'\\n').count();`,
          `if let Some(rank) = vocab.get(&bytes[${int(0, 9)}..]) { return Ok(*rank as usize); }`,
          `match ${pick(IDENTS).toLowerCase()} { Ok(v) => v, Err(e) => return Err(e.into()), }`,
          `// ${sentence()}`,
          `assert_eq!(count, ${int(0, 1e6)}, "{}", ${pick(IDENTS).toLowerCase()});`,
        ]));
      }
      out.push('}', '');
    }
    return '```rust\n' + out.join('\n') + '```\n';
  };
  const jsonOut = () => {
    const mk = (d) => {
      if (d > 3 || r() < 0.3) return pick([int(-1e6, 1e6), r() * 1000, true, false, null, sentence(), '/home/user/project/src/' + pick(IDENTS) + '.ts', pick(EMOJI) + ' ok']);
      if (r() < 0.4) return Array.from({ length: int(0, 6) }, () => mk(d + 1));
      const o = {};
      for (let k = int(1, 7); k > 0; k--) o[pick(IDENTS)] = mk(d + 1);
      return o;
    };
    const v = { tool_call_id: 'call_' + int(1e8, 9e8).toString(36), status: 'ok', result: mk(0), items: Array.from({ length: int(1, 12) }, () => mk(1)) };
    return JSON.stringify(v, null, pick([0, 2, 2, 4])) + '\n';
  };
  const shellOut = () => {
    const out = ['$ ' + pick(['ls -la', 'git status', 'npm test', 'cargo build', 'grep -rn token src/'])];
    for (let l = int(3, 30); l > 0; l--) {
      out.push(pick([
        `-rw-r--r--  1 user  staff  ${String(int(0, 99999)).padStart(8)} Jan ${int(1, 28)} 12:${int(10, 59)} ${pick(IDENTS)}.ts`,
        `src/${pick(IDENTS)}.rs:${int(1, 999)}:${int(1, 80)}: warning: unused variable \`${pick(IDENTS)}\``,
        `    at ${pick(IDENTS)} (/app/node_modules/${pick(IDENTS)}/index.js:${int(1, 999)}:${int(1, 80)})`,
        `+    ${pick(IDENTS)}(${int(0, 9)});`, `-    ${pick(IDENTS)}(${int(0, 9)});`,
        `  ✓ ${sentence()} (${int(1, 999)} ms)`, `  ✗ ${sentence()}`,
        `${int(1000, 9999)}-${int(10, 12)}-${int(10, 28)}T12:${int(10, 59)}:${int(10, 59)}.${int(100, 999)}Z INFO ${sentence()}`,
      ]));
    }
    return out.join('\n') + '\n';
  };
  const cjk = () => {
    if (r() < 0.5) {
      let s = '';
      for (let i = int(50, 600); i > 0; i--) { s += CJK_ZH[int(0, CJK_ZH.length - 1)]; if (r() < 0.08) s += pick(['，', '。', '、', '：', '！', '\n']); }
      return s + '\n';
    }
    return CJK_JA.repeat(int(1, 5)) + '\n';
  };
  const emoji = () => Array.from({ length: int(5, 60) }, () => pick(EMOJI) + (r() < 0.5 ? ' ' : '')).join('') + '\n';
  const whitespace = () => pick([' ', '\t', '\n', '  \n', '\r\n']).repeat(int(10, 400)) + pick(['x', '}', '\n', '', 'end']);

  const gens = [[prose, 30], [tsCode, 18], [rustCode, 10], [jsonOut, 16], [shellOut, 12], [cjk, 6], [emoji, 3], [whitespace, 5]];
  const total = gens.reduce((s, g) => s + g[1], 0);
  const enc = new TextEncoder();
  const chunks = [];
  let bytes = 0;
  while (bytes < targetBytes) {
    const want = int(1024, 50 * 1024);
    let c = '';
    while (c.length < want) {
      let x = r() * total, g;
      for (g of gens) { x -= g[1]; if (x < 0) break; }
      c += g[0]();
    }
    chunks.push(c);
    bytes += enc.encode(c).length;
  }
  return { chunks, whole: chunks.join(''), bytes };
}

export { CJK_ZH, WORDS, gen, mulberry32 };
