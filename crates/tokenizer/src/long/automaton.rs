//! Every token that ends at a position of the text: an Aho–Corasick automaton over the
//! tokens whose bytes all occur in the text, built at run time when a long piece needs it.
//!
//! A piece of letters needs the 26k tokens made of letters (1.5 MB, tens of ms to build)
//! rather than all 200k (over 20 MB and a third of a second), and a run of one byte a
//! handful. The trie's nodes are numbered breadth first, so a node's children are
//! consecutive nodes, sorted by byte, and a node needs no list of edges.

/// A node: the root is 0.
pub(super) type State = u32;

const ROOT: State = 0;
const NONE: u32 = u32::MAX;
/// A node's `token`: the rank of the token it spells and its length, or `NONE`.
const RANK_BITS: u32 = 24;
const RANK_MASK: u32 = (1 << RANK_BITS) - 1;

#[derive(Clone, Copy)]
struct Node {
    /// The first child; the children run to the next node's first child.
    first: u32,
    /// The longest proper suffix of this node's string that is a node.
    fail: State,
    /// The token this node spells: `rank | len << 24`, or `NONE`.
    token: u32,
    /// The next node down the `fail` chain that spells a token, or `ROOT`.
    next_token: State,
}

pub(super) struct Automaton {
    nodes: Vec<Node>,
    /// The byte of the edge into each node.
    byte: Vec<u8>,
    /// The root's transitions, one per byte.
    root: Box<[State; 256]>,
}

impl Automaton {
    /// The automaton of `tokens`, each `(rank, bytes)`.
    pub(super) fn new(mut tokens: Vec<(u32, &[u8])>) -> Self {
        tokens.sort_unstable_by(|a, b| a.1.cmp(b.1));
        // Breadth first: a node is the range of sorted tokens that share its string, of
        // length `depth`; the token equal to it, if any, sorts first in the range.
        let mut ranges: Vec<(u32, u32, u8)> = vec![(0, tokens.len() as u32, 0)];
        let mut nodes: Vec<Node> = Vec::new();
        let mut byte = vec![0u8];
        let mut v = 0;
        while v < ranges.len() {
            let (mut lo, hi, depth) = ranges[v];
            let d = depth as usize;
            let mut token = NONE;
            if lo < hi && tokens[lo as usize].1.len() == d && d > 0 {
                token = tokens[lo as usize].0 | (depth as u32) << RANK_BITS;
                lo += 1;
            }
            nodes.push(Node {
                first: ranges.len() as u32,
                fail: ROOT,
                token,
                next_token: ROOT,
            });
            while lo < hi {
                let b = tokens[lo as usize].1[d];
                let mut end = lo + 1;
                while end < hi && tokens[end as usize].1[d] == b {
                    end += 1;
                }
                ranges.push((lo, end, depth + 1));
                byte.push(b);
                lo = end;
            }
            v += 1;
        }
        drop(ranges);
        let end = nodes.len() as u32;
        nodes.push(Node {
            first: end,
            fail: ROOT,
            token: NONE,
            next_token: ROOT,
        });

        let mut automaton = Self {
            nodes,
            byte,
            root: Box::new([ROOT; 256]),
        };
        let root = automaton.nodes[0];
        for child in root.first..automaton.nodes[1].first {
            automaton.root[automaton.byte[child as usize] as usize] = child;
        }
        // Breadth first, a node's fail link is set before its children need it; the
        // root's children keep the root.
        for v in 1..end {
            let parent_fail = automaton.nodes[v as usize].fail;
            let (first, last) = automaton.children(v);
            for child in first..last {
                automaton.nodes[child as usize].fail =
                    automaton.next(parent_fail, automaton.byte[child as usize]);
            }
        }
        for v in 1..end as usize {
            let fail = automaton.nodes[v].fail;
            let next_token = if automaton.nodes[fail as usize].token != NONE {
                fail
            } else {
                automaton.nodes[fail as usize].next_token
            };
            automaton.nodes[v].next_token = next_token;
        }
        automaton
    }

    #[inline]
    fn children(&self, v: State) -> (u32, u32) {
        (
            self.nodes[v as usize].first,
            self.nodes[v as usize + 1].first,
        )
    }

    pub(super) fn start(&self) -> State {
        ROOT
    }

    /// The state after `state` reads `byte`.
    #[inline]
    pub(super) fn next(&self, mut state: State, byte: u8) -> State {
        loop {
            if state == ROOT {
                return self.root[byte as usize];
            }
            let (first, last) = self.children(state);
            if let Some(child) = self.child(first, last, byte) {
                return child;
            }
            state = self.nodes[state as usize].fail;
        }
    }

    /// The child among `first..last` reached by `byte`. Children's bytes are distinct and
    /// ascending, so `byte` is at most `byte - lowest` places in, and exactly there when
    /// the children cover a range of bytes (letters, UTF-8 continuation bytes).
    #[inline]
    fn child(&self, first: u32, last: u32, byte: u8) -> Option<State> {
        let lowest = *self.byte.get(first as usize).filter(|_| first < last)?;
        let most = first + u32::from(byte.checked_sub(lowest)?);
        if most < last && self.byte[most as usize] == byte {
            return Some(most);
        }
        let upto = most.min(last - 1);
        self.byte[first as usize..=upto as usize]
            .binary_search(&byte)
            .ok()
            .map(|at| first + at as u32)
    }

    /// The tokens that end where `state` was reached, longest first, as `(rank, len)`.
    #[inline]
    pub(super) fn ending(&self, state: State) -> Ending<'_> {
        let node = self.nodes[state as usize];
        Ending {
            automaton: self,
            at: if node.token != NONE {
                state
            } else {
                node.next_token
            },
        }
    }
}

#[derive(Clone)]
pub(super) struct Ending<'a> {
    automaton: &'a Automaton,
    at: State,
}

impl Iterator for Ending<'_> {
    type Item = (u32, usize);

    #[inline]
    fn next(&mut self) -> Option<(u32, usize)> {
        if self.at == ROOT {
            return None;
        }
        let node = self.automaton.nodes[self.at as usize];
        self.at = node.next_token;
        Some((node.token & RANK_MASK, (node.token >> RANK_BITS) as usize))
    }
}
