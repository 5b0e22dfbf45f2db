//! The decode path's key/value cache: storage for every layer allocated once, at its full size,
//! and written in place; a new token never copies what is already there. (Chapter 10's
//! [`LayerCache`](ch10_language_models::LayerCache) concatenates a new tensor at every step,
//! which copies the whole cache: fine within its model's 128 characters of context, quadratic in
//! the length over thousands of tokens.)
//!
//! What it keeps is a [`Policy`]: everything, a rolling window of the latest tokens, or that
//! window plus the first few tokens of the text, StreamingLLM's attention sinks
//! (Xiao et al. 2023).

/// Which tokens' keys and values the cache keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// every token, up to `capacity`
    Full { capacity: usize },
    /// the first `sinks` tokens of the text and the latest `recent` (the new one included):
    /// `sinks = 0` is a plain rolling window
    Streaming { sinks: usize, recent: usize },
}

impl Policy {
    /// A rolling window of the latest `recent` tokens.
    pub fn window(recent: usize) -> Policy {
        Policy::Streaming { sinks: 0, recent }
    }

    /// How many tokens the storage holds.
    pub fn slots(self) -> usize {
        match self {
            Policy::Full { capacity } => capacity,
            Policy::Streaming { sinks, recent } => sinks + recent,
        }
    }
}

/// Keys (turned by RoPE at their own positions) and values of every layer.
#[derive(Clone, Debug)]
pub struct Cache {
    policy: Policy,
    /// `slots × kv_width` per layer
    keys: Vec<Vec<f32>>,
    values: Vec<Vec<f32>>,
    /// the text position held in each slot in use
    positions: Vec<usize>,
    /// every token seen, kept or dropped
    seen: usize,
    kv_width: usize,
}

impl Cache {
    /// Storage for `layers` layers of `kv_width` keys and values per token, as `policy` says.
    ///
    /// # Panics
    /// If the policy keeps no recent token.
    pub fn new(policy: Policy, layers: usize, kv_width: usize) -> Cache {
        let slots = policy.slots();
        assert!(
            !matches!(policy, Policy::Streaming { recent: 0, .. }) && slots > 0,
            "the cache must keep at least the newest token"
        );
        Cache {
            policy,
            keys: vec![vec![0.0; slots * kv_width]; layers],
            values: vec![vec![0.0; slots * kv_width]; layers],
            positions: Vec::with_capacity(slots),
            seen: 0,
            kv_width,
        }
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The position the next token gets.
    pub fn next_position(&self) -> usize {
        self.seen
    }

    /// The text positions of the keys held, slot by slot.
    pub fn positions(&self) -> &[usize] {
        &self.positions
    }

    // ANCHOR: admit
    /// Makes room for the next token and returns its slot: the next free one, or once the
    /// storage is full under [`Policy::Streaming`], the slot of the oldest token after the
    /// sinks (a ring over the `recent` slots).
    ///
    /// # Panics
    /// If a [`Policy::Full`] cache is full.
    pub fn admit(&mut self) -> usize {
        let slots = self.policy.slots();
        let slot = if self.positions.len() < slots {
            self.positions.push(self.seen);
            self.positions.len() - 1
        } else {
            let Policy::Streaming { sinks, recent } = self.policy else {
                panic!("the cache holds {slots} tokens and is full");
            };
            let slot = sinks + (self.seen - sinks) % recent;
            self.positions[slot] = self.seen;
            slot
        };
        self.seen += 1;
        slot
    }
    // ANCHOR_END: admit

    /// Writes a token's key and value for `layer` into `slot`.
    pub fn write(&mut self, layer: usize, slot: usize, key: &[f32], value: &[f32]) {
        let at = slot * self.kv_width..(slot + 1) * self.kv_width;
        self.keys[layer][at.clone()].copy_from_slice(key);
        self.values[layer][at].copy_from_slice(value);
    }

    /// The keys and values of `layer` in the first `slots` slots: `slots × kv_width` each. The
    /// slots fill in order, so a token at position `p` sees the first `min(p + 1, slots)`.
    pub fn layer(&self, layer: usize, slots: usize) -> (&[f32], &[f32]) {
        let used = slots * self.kv_width;
        (&self.keys[layer][..used], &self.values[layer][..used])
    }

    /// Bytes of the storage (`f32`), allocated once.
    pub fn bytes(&self) -> usize {
        2 * self.keys.len() * self.policy.slots() * self.kv_width * std::mem::size_of::<f32>()
    }
}
