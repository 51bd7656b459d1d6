//! A fixed-capacity FIFO ring buffer: `push` is O(1) and, once full, overwrites the
//! oldest slot in place instead of shifting the whole log (what `Array.prototype.shift`
//! would cost on every append of a full `AgentLogStore`).

#[derive(Debug, Clone)]
pub struct Ring<T> {
    slots: Vec<T>,
    /// Index of the oldest entry once the buffer has wrapped; 0 before that.
    head: usize,
    capacity: usize,
}

impl<T> Ring<T> {
    /// `capacity` must be at least 1; the bindings check that before building one.
    pub fn new(capacity: usize) -> Self {
        assert!(capacity > 0, "ring capacity must be at least 1");
        // Grown on demand: a store configured for a million entries costs nothing until used.
        Self {
            slots: Vec::new(),
            head: 0,
            capacity,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Appends `value`; when full, returns the evicted oldest entry.
    pub fn push(&mut self, value: T) -> Option<T> {
        if self.slots.len() < self.capacity {
            self.slots.push(value);
            return None;
        }
        let evicted = std::mem::replace(&mut self.slots[self.head], value);
        self.head = (self.head + 1) % self.capacity;
        Some(evicted)
    }

    /// Appends `value` and returns the slot it went into, with the entry it evicted. A host
    /// that keeps its own objects beside the ring stores them at the same slot.
    pub fn push_slot(&mut self, value: T) -> (usize, Option<T>) {
        if self.slots.len() < self.capacity {
            self.slots.push(value);
            return (self.slots.len() - 1, None);
        }
        let slot = self.head;
        (slot, self.push(value))
    }

    /// Slots oldest first.
    pub fn slot_order(&self) -> impl Iterator<Item = usize> + '_ {
        (self.head..self.slots.len()).chain(0..self.head)
    }

    /// The entry in `slot`.
    pub fn at(&self, slot: usize) -> &T {
        &self.slots[slot]
    }

    /// Entries oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        let (newer, older) = self.slots.split_at(self.head);
        older.iter().chain(newer.iter())
    }

    pub fn clear(&mut self) {
        self.slots.clear();
        self.head = 0;
    }
}

#[cfg(test)]
#[path = "tests/ring.rs"]
mod tests;
