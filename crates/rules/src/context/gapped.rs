//! A sequence numbered from 0 whose middle can be forgotten: the messages folded away
//! behind a summary (and their calls) are never read again, so a manager lets them go and
//! keeps their numbers. Its memory, and its state's size, then follow what is live, not
//! the conversation's age.
//!
//! Items are kept in `head` (numbers `head_at..head_at + head.len()`: the messages a
//! request sends before its summary, the opening one or the group of the provider's own
//! compaction) and `tail` (from `gap_to` on); those before and between are forgotten, and
//! read as the `stand_in`. Forgotten items are only ever read, never written: the rules
//! write the live ones alone.

use std::ops::{Index, IndexMut, Range, RangeFrom};

#[derive(Debug, Clone, PartialEq)]
pub struct Gapped<T> {
    head_at: usize,
    head: Vec<T>,
    gap_to: usize,
    tail: Vec<T>,
    stand_in: T,
}

impl<T> Gapped<T> {
    pub fn new(stand_in: T) -> Self {
        Gapped {
            head_at: 0,
            head: Vec::new(),
            gap_to: 0,
            tail: Vec::new(),
            stand_in,
        }
    }

    /// `head` (numbered from `head_at`), then items forgotten up to `gap_to`, then `tail`:
    /// a state as decoded. The caller checks `head_at + head.len() <= gap_to`.
    pub fn from_parts(
        head_at: usize,
        head: Vec<T>,
        gap_to: usize,
        tail: Vec<T>,
        stand_in: T,
    ) -> Self {
        Gapped {
            head_at: if head.is_empty() { 0 } else { head_at },
            head,
            gap_to,
            tail,
            stand_in,
        }
    }

    /// The numbers of the items kept in the head.
    pub fn head_range(&self) -> Range<usize> {
        self.head_at..self.head_at + self.head.len()
    }

    pub fn len(&self) -> usize {
        self.gap_to + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Items before this one are kept in `head` or forgotten.
    pub fn gap_to(&self) -> usize {
        self.gap_to
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        if i < self.head_at + self.head.len() {
            if i < self.head_at {
                Some(&self.stand_in)
            } else {
                self.head.get(i - self.head_at)
            }
        } else if i < self.gap_to {
            Some(&self.stand_in)
        } else {
            self.tail.get(i - self.gap_to)
        }
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&T> {
        self.tail
            .last()
            .or_else(|| self.get(self.len().wrapping_sub(1)))
    }

    pub fn push(&mut self, item: T) {
        self.tail.push(item);
    }

    /// Keeps the first `len` items: only ever items appended since the last `forget`.
    pub fn truncate(&mut self, len: usize) {
        self.tail.truncate(len.saturating_sub(self.gap_to));
    }

    /// Every item, the forgotten ones as the stand-in: for a walk that needs the numbers.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len()).map(move |i| &self[i])
    }

    /// The items kept, with their numbers.
    pub fn kept(&self) -> impl Iterator<Item = (usize, &T)> + '_ {
        let (gap_to, head_at) = (self.gap_to, self.head_at);
        self.head
            .iter()
            .enumerate()
            .map(move |(i, t)| (head_at + i, t))
            .chain(
                self.tail
                    .iter()
                    .enumerate()
                    .map(move |(i, t)| (gap_to + i, t)),
            )
    }
}

impl<T: Clone> Gapped<T> {
    /// Lets the items before `to` go, but those of `keep` (kept now: the head, or live):
    /// they are the head from now on, and those already let go stay so.
    pub fn forget(&mut self, keep: Range<usize>, to: usize) {
        let to = to.min(self.len()).max(self.gap_to);
        let keep = keep.start..keep.end.min(to);
        if to == self.gap_to && (keep.is_empty() || keep == self.head_range()) {
            if keep.is_empty() && !self.head.is_empty() && to > self.head_at {
                self.head.clear();
                self.head_at = 0;
            }
            return;
        }
        let head: Vec<T> = keep
            .clone()
            .filter_map(|i| {
                let live = self.head_range().contains(&i) || i >= self.gap_to;
                live.then(|| self[i].clone())
            })
            .collect();
        let gone = (to - self.gap_to).min(self.tail.len());
        self.tail.drain(..gone);
        self.gap_to = to;
        self.head_at = if head.is_empty() { 0 } else { keep.start };
        self.head = head;
    }
}

impl<T> Index<usize> for Gapped<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(t) => t,
            None => panic!("item {i} of {}", self.len()),
        }
    }
}

impl<T> IndexMut<usize> for Gapped<T> {
    /// A live item: the rules never write one that was let go.
    fn index_mut(&mut self, i: usize) -> &mut T {
        if self.head_range().contains(&i) {
            &mut self.head[i - self.head_at]
        } else if i >= self.gap_to {
            &mut self.tail[i - self.gap_to]
        } else {
            panic!("item {i} was let go: only live items are written")
        }
    }
}

impl<T> Index<RangeFrom<usize>> for Gapped<T> {
    type Output = [T];
    /// Items from a live one on (a group and those after it).
    fn index(&self, r: RangeFrom<usize>) -> &[T] {
        if r.start >= self.gap_to {
            &self.tail[r.start - self.gap_to..]
        } else {
            panic!("items from {} were let go", r.start)
        }
    }
}

#[cfg(test)]
#[path = "tests/gapped.rs"]
mod tests;
