// The scripted session the demo replays: an agent fixing parser::tests::trailing_token in
// `tinyparse`. Everything is generated from a fixed seed, so every run is identical; the
// tool outputs are several hundred KB, as real test logs and greps are.

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

const random = rng(2026);
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const files = ['src/lexer.rs', 'src/parser.rs', 'src/ast.rs', 'tests/parser.rs', 'tests/lexer.rs'];

function testLog(kb, failing) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const name = `${pick(['parser', 'lexer', 'eval'])}::tests::case_${i}`;
    const fail = failing && i % 97 === 13;
    const line = fail
      ? `test ${name} ... FAILED\n---- ${name} stdout ----\nthread '${name}' panicked at src/parser.rs:${200 + (i % 50)}:9:\nassertion \`left == right\` failed\n  left: [Int(1), Plus, Int(2), Star]\n right: [Int(1), Plus, Int(2), Star, Int(3)]\n`
      : `test ${name} ... ok (${(random() * 3).toFixed(2)}ms)\n`;
    lines.push(line);
    size += line.length;
  }
  const summary = failing ? 'test result: FAILED. 1 failed' : 'test result: ok. 0 failed';
  return `running ${lines.length} tests\n${lines.join('')}\n${summary}; finished in ${(random() * 9 + 1).toFixed(2)}s\n`;
}

function sourceFile(kb, path) {
  const out = [`// ${path}`];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const line = `    fn ${pick(['peek', 'bump', 'expect', 'parse_expr', 'parse_prefix', 'emit'])}_${i}(&mut self) -> Result<Token, ParseError> { self.pos += ${i % 5}; Ok(self.tokens[self.pos].clone()) }`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

function grepHits(kb) {
  const out = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const line = `${pick(files)}:${1 + (i % 900)}:        Token::${pick(['Eof', 'Int', 'Plus', 'Star', 'Ident'])} => self.${pick(['bump', 'peek', 'emit'])}(),`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

/** A patch the agent writes: the model's response carries it in full. */
function patch(kb, file) {
  return `I will rewrite ${file} so the lexer emits the final token before Eof.\n\n\`\`\`rust\n${sourceFile(kb, file)}\n\`\`\``;
}

const phases = [
  { name: 'explore', turns: 12 },
  { name: 'reproduce', turns: 18 },
  { name: 'fix', turns: 60 },
  { name: 'verify', turns: 30 },
];

/** One step per turn: what the user says, what the agent answers, the tool it ran. */
export function session() {
  const steps = [];
  for (const phase of phases) {
    for (let i = 0; i < phase.turns; i++) {
      const n = steps.length + 1;
      const kind = phase.name === 'explore' ? pick(['read_file', 'grep'])
        : phase.name === 'reproduce' ? pick(['run_tests', 'read_file', 'run_tests'])
        : phase.name === 'fix' ? pick(['edit_file', 'run_tests', 'run_tests', 'grep'])
        : pick(['run_tests', 'cargo_clippy', 'read_file']);
      const fixed = phase.name === 'verify' && i > 10;
      const file = pick(files);
      const [output, status] = {
        read_file: () => [sourceFile(8 + Math.floor(random() * 24), file), 'success'],
        grep: () => [grepHits(60 + Math.floor(random() * 200)), 'success'],
        run_tests: () => [testLog(150 + Math.floor(random() * 450), !fixed), fixed ? 'success' : 'error'],
        edit_file: () => [`wrote ${file}`, 'success'],
        cargo_clippy: () => [fixed ? 'Finished dev profile; 0 warnings' : 'warning: unused variable `tok` at src/lexer.rs:88', fixed ? 'success' : 'partial'],
      }[kind]();
      const answerKb = kind === 'edit_file' ? 64 + Math.floor(random() * 128) : 12 + Math.floor(random() * 18);
      steps.push({
        phase: phase.name,
        user: i === 0 ? `Phase ${phase.name}: keep going on parser::tests::trailing_token.` : `Turn ${n}: continue.`,
        answer: kind === 'edit_file' ? patch(answerKb, file) : `Turn ${n}: ${kind} on ${file}. ${sourceFile(answerKb, file)}`,
        reasoning: `The lexer drops the token before Eof; checking ${file} with ${kind}.`,
        plan: fixed ? '1. lexer emits last token ✔ 2. regression test ✔ 3. clippy, fmt' : '1. reproduce 2. make the lexer emit the last token 3. add a regression test',
        tool: kind,
        args: kind === 'run_tests' ? { filter: 'parser' } : { path: file },
        status,
        output,
      });
    }
  }
  return steps;
}
