//! What every rule shares: argument checks ([`args`]), the codes that cross the boundary
//! ([`codes`]), frames of pieces ([`frame`]), how a number prints ([`number`]), how
//! host texts reach the rules ([`text`], [`cut`]), the seed's token count ([`tokens`]), and
//! a ring buffer ([`ring`]).

pub mod args;
pub mod codes;
pub mod cut;
pub mod frame;
pub mod number;
pub mod ring;
#[cfg(test)]
#[path = "tests/rng.rs"]
pub mod rng;
pub mod text;
pub mod tokens;
