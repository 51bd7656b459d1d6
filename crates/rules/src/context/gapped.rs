//! A sequence numbered from 0 whose middle can be forgotten: the messages folded away
//! behind a summary (and their calls) are never read again, so a manager lets them go and
//! keeps their numbers. Its memory, and its state's size, then follow what is live, not
//! the conversation's age.
//!
//! Items are kept in `head` (numbers `0..head.len()`, the opening message a request always
//! sends) and `tail` (from `gap_to` on); those between are forgotten, and read as the
//! `stand_in`. Forgotten items are only ever read, never written: the rules write the live
//! ones alone.

use std::ops::{Index, IndexMut, RangeFrom};

#[derive(Debug, Clone, PartialEq)]
pub struct Gapped<T> {
    head: Vec<T>,
    gap_to: usize,
    tail: Vec<T>,
    stand_in: T,
}

impl<T> Gapped<T> {
    pub fn new(stand_in: T) -> Self {
        Gapped {
            head: Vec::new(),
            gap_to: 0,
            tail: Vec::new(),
            stand_in,
        }
    }

    /// `head`, then `forgotten` items, then `tail`: a state as decoded.
    pub fn from_parts(head: Vec<T>, forgotten: usize, tail: Vec<T>, stand_in: T) -> Self {
        Gapped {
            gap_to: head.len() + forgotten,
            head,
            tail,
            stand_in,
        }
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
        if i < self.head.len() {
            self.head.get(i)
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
        let gap_to = self.gap_to;
        self.head.iter().enumerate().chain(
            self.tail
                .iter()
                .enumerate()
                .map(move |(i, t)| (gap_to + i, t)),
        )
    }

    /// Lets items `keep..to` go: the first `keep` stay (the opening message), and those
    /// already let go stay so. The head is set by the first items let go.
    pub fn forget(&mut self, keep: usize, to: usize) {
        let to = to.min(self.len());
        // Once some are let go, the head is what it is.
        let keep = if self.gap_to > self.head.len() {
            self.head.len()
        } else {
            keep.max(self.head.len())
        };
        if to <= keep.max(self.gap_to) {
            return;
        }
        // Nothing let go yet: the tail begins at the head's end, and its first items join it.
        let n = keep - self.head.len();
        self.head.extend(self.tail.drain(..n));
        self.gap_to = keep.max(self.gap_to);
        let n = to - self.gap_to;
        self.tail.drain(..n);
        self.gap_to = to;
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
        if i < self.head.len() {
            &mut self.head[i]
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
mod tests {
    use super::Gapped;

    fn numbers(n: usize) -> Gapped<i64> {
        let mut g = Gapped::new(-1);
        for i in 0..n {
            g.push(i as i64);
        }
        g
    }

    #[test]
    fn items_let_go_keep_their_numbers_and_read_as_the_stand_in() {
        let mut g = numbers(10);
        g.forget(1, 6);
        assert_eq!(g.len(), 10);
        let all: Vec<i64> = g.iter().copied().collect();
        assert_eq!(all, [0, -1, -1, -1, -1, -1, 6, 7, 8, 9]);
        assert_eq!(
            g.kept().map(|(i, _)| i).collect::<Vec<_>>(),
            [0, 6, 7, 8, 9]
        );
        assert_eq!(&g[7..], &[7, 8, 9]);
        // The head is set by the first let go: later, only the gap grows.
        g.forget(0, 8);
        assert_eq!(
            g.iter().copied().collect::<Vec<_>>(),
            [0, -1, -1, -1, -1, -1, -1, -1, 8, 9]
        );
        g.forget(1, 3);
        assert_eq!(
            g.gap_to(),
            8,
            "forgetting less than is let go changes nothing"
        );
        g.push(10);
        g.truncate(10);
        assert_eq!((g.len(), g.last()), (10, Some(&9)));
        g[9] = 90;
        assert_eq!(g.get(9), Some(&90));
        assert_eq!(g.get(10), None);
    }

    #[test]
    fn nothing_let_go_until_there_is_something_past_the_head() {
        let mut g = numbers(3);
        g.forget(1, 1);
        assert_eq!((g.gap_to(), &g[0..]), (0, &[0_i64, 1, 2][..]));
        g.forget(0, 2);
        assert_eq!(g.iter().copied().collect::<Vec<_>>(), [-1, -1, 2]);
        let decoded = Gapped::from_parts(vec![], 2, vec![2], -1);
        assert_eq!(decoded, g);
    }
}
