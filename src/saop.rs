//! The SAOP validator over a host's skeleton of its envelopes.
//!
//! The TS shell (`pkg/src/seeds/saop.ts`) walks an envelope once and writes what the validator
//! may read, in a compact text form read here in one pass:
//! - `S<len>:<text>` a short string, `s<len>;` a long one (its text is never sent);
//! - `n<number>;` a number (JS notation: `NaN`, `Infinity` included);
//! - `t` / `f` booleans, `z` null, `u` undefined;
//! - `x<what>;` what JSON cannot hold: `bigint`, `function`, `symbol`, `cycle`;
//! - `a<count>;` then the items; `o<count>;` then each key as `<len>:<text>` and its value.
//!
//! Lengths are UTF-16 units, as the host counts them. Lone surrogates arrive as U+FFFD,
//! which is one unit too.

use devs_context_errors::FieldError;
use devs_context_rules::base::text::split_texts;
use devs_context_rules::seeds::saop::{Kind, Node, validate_envelope};
use wasm_bindgen::prelude::*;

use crate::Out;

#[derive(Debug, Clone, Copy)]
enum Tag {
    Str {
        len: usize,
        text: Option<(usize, usize)>,
    },
    Num(f64),
    Bool,
    Null,
    Undefined,
    Other(&'static str),
    Array,
    Object,
}

#[derive(Debug, Clone, Copy)]
struct Flat {
    tag: Tag,
    /// Byte range of this node's key in its parent object.
    key: (usize, usize),
    /// Index of the first child, and how many there are (children are contiguous).
    first: usize,
    count: usize,
}

struct Skeleton<'a> {
    src: &'a str,
    nodes: Vec<Flat>,
}

struct Parser<'a> {
    src: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn until(&mut self, end: u8) -> Option<&'a str> {
        let start = self.at;
        let len = self.bytes()[start..].iter().position(|&b| b == end)?;
        self.at = start + len + 1;
        Some(&self.src[start..start + len])
    }

    /// Skips `units` UTF-16 units of text; returns its byte range.
    fn text(&mut self, units: usize) -> Option<(usize, usize)> {
        let start = self.at;
        let mut seen = 0;
        let mut chars = self.src[start..].char_indices();
        while seen < units {
            let (_, c) = chars.next()?;
            seen += c.len_utf16();
        }
        let end = chars.next().map_or(self.src.len(), |(i, _)| start + i);
        self.at = end;
        Some((start, end))
    }

    fn count(&mut self, end: u8) -> Option<usize> {
        self.until(end)?.parse().ok()
    }

    /// Parses one node (and its subtree) into `nodes`, returning its index.
    fn node(&mut self, nodes: &mut Vec<Flat>, key: (usize, usize)) -> Option<usize> {
        let tag = *self.bytes().get(self.at)?;
        self.at += 1;
        let index = nodes.len();
        let flat = |tag| Flat {
            tag,
            key,
            first: 0,
            count: 0,
        };
        let node = match tag {
            b'S' => {
                let len = self.count(b':')?;
                flat(Tag::Str {
                    len,
                    text: Some(self.text(len)?),
                })
            }
            b's' => flat(Tag::Str {
                len: self.count(b';')?,
                text: None,
            }),
            b'n' => flat(Tag::Num(self.until(b';')?.parse().ok()?)),
            b't' | b'f' => flat(Tag::Bool),
            b'z' => flat(Tag::Null),
            b'u' => flat(Tag::Undefined),
            b'x' => flat(Tag::Other(match self.until(b';')? {
                "bigint" => "bigint",
                "function" => "function",
                "symbol" => "symbol",
                _ => "circular reference",
            })),
            b'a' | b'o' => {
                let count = self.count(b';')?;
                nodes.push(flat(if tag == b'a' { Tag::Array } else { Tag::Object }));
                // Children are parsed depth first; their indexes are collected, then moved
                // to one contiguous run after the subtree so `first..first + count` holds.
                let mut children = Vec::with_capacity(count);
                for _ in 0..count {
                    let child_key = if tag == b'o' {
                        let len = self.count(b':')?;
                        self.text(len)?
                    } else {
                        (0, 0)
                    };
                    children.push(self.node(nodes, child_key)?);
                }
                let first = nodes.len();
                for c in children {
                    let copy = nodes[c];
                    nodes.push(copy);
                }
                nodes[index].first = first;
                nodes[index].count = count;
                return Some(index);
            }
            _ => return None,
        };
        nodes.push(node);
        Some(index)
    }
}

#[derive(Clone, Copy)]
struct View<'s, 'a> {
    skeleton: &'s Skeleton<'a>,
    index: usize,
}

impl<'s, 'a> View<'s, 'a> {
    fn flat(&self) -> &'s Flat {
        &self.skeleton.nodes[self.index]
    }

    fn child_views(&self) -> impl Iterator<Item = View<'s, 'a>> + 's {
        let (first, count, skeleton) = (self.flat().first, self.flat().count, self.skeleton);
        (first..first + count).map(move |index| View { skeleton, index })
    }

    fn key(&self) -> &'a str {
        let (start, end) = self.flat().key;
        &self.skeleton.src[start..end]
    }
}

impl Node for View<'_, '_> {
    fn kind(&self) -> Kind {
        match self.flat().tag {
            Tag::Str { .. } => Kind::String,
            Tag::Num(n) => Kind::Number(n),
            Tag::Bool => Kind::Bool,
            Tag::Null => Kind::Null,
            Tag::Undefined => Kind::Missing,
            Tag::Other(what) => Kind::Other(what),
            Tag::Array => Kind::Array,
            Tag::Object => Kind::Object,
        }
    }

    fn text(&self) -> Option<String> {
        match self.flat().tag {
            Tag::Str {
                text: Some((start, end)),
                ..
            } => Some(self.skeleton.src[start..end].to_owned()),
            _ => None,
        }
    }

    fn text_len(&self) -> usize {
        match self.flat().tag {
            Tag::Str { len, .. } => len,
            _ => 0,
        }
    }

    fn get(&self, key: &str) -> Option<Self> {
        if !matches!(self.flat().tag, Tag::Object) {
            return None;
        }
        self.child_views()
            .find(|c| c.key() == key)
            .filter(|c| c.kind() != Kind::Missing)
    }

    fn keys(&self) -> Vec<String> {
        match self.flat().tag {
            Tag::Object => self.child_views().map(|c| c.key().to_owned()).collect(),
            _ => Vec::new(),
        }
    }

    fn key_outside(&self, allowed: &[&str]) -> Option<String> {
        if !matches!(self.flat().tag, Tag::Object) {
            return None;
        }
        self.child_views()
            .map(|c| c.key())
            .find(|k| !allowed.contains(k))
            .map(str::to_owned)
    }

    fn child_nodes(&self) -> Vec<Self> {
        self.child_views().collect()
    }

    fn children(&self) -> Vec<(String, Self)> {
        let object = matches!(self.flat().tag, Tag::Object);
        self.child_views()
            .enumerate()
            .map(|(i, c)| {
                (
                    if object {
                        c.key().to_owned()
                    } else {
                        i.to_string()
                    },
                    c,
                )
            })
            .collect()
    }
}

/// Validates each skeleton after the first `prefix_len` UTF-16 units of `text` (one
/// skeleton after another), which are the `prefix` a fault's field is named under:
/// `{prefix}[{indexes[k]}].{field}` when `indexes` are given, else `{prefix}.{field}` (the
/// envelope itself is `{prefix}`), or as is when `prefix` is empty. One string crosses.
#[wasm_bindgen(js_name = validateSkeletons)]
pub fn validate_skeletons(text: &str, prefix_len: u32, indexes: Option<Vec<u32>>) -> Out<()> {
    let prefix = split_texts(text, &[prefix_len])[0];
    let skeletons = &text[prefix.len()..];
    let indexes = indexes.unwrap_or_default();
    let mut parser = Parser {
        src: skeletons,
        at: 0,
    };
    let mut k = 0;
    while parser.at < skeletons.len() {
        // About one node per 8 bytes of skeleton: the vector rarely grows.
        let mut nodes = Vec::with_capacity((skeletons.len() - parser.at) / 8 + 8);
        let unreadable = || crate::fail(FieldError::type_error("envelope", "could not be read"));
        let root = parser.node(&mut nodes, (0, 0)).ok_or_else(unreadable)?;
        let skeleton = Skeleton {
            src: skeletons,
            nodes,
        };
        if let Err(mut err) = validate_envelope(&View {
            skeleton: &skeleton,
            index: root,
        }) {
            let at = match indexes.get(k) {
                Some(i) => format!("{prefix}[{i}]"),
                None => prefix.to_owned(),
            };
            if !at.is_empty() {
                err.field = if err.field == "envelope" {
                    at
                } else {
                    format!("{at}.{}", err.field)
                };
            }
            return Err(crate::fail(err));
        }
        k += 1;
    }
    Ok(())
}
