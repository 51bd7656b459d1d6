//! What every rule shares: argument checks ([`args`]), frames of pieces ([`frame`]), how
//! host texts reach the rules ([`text`], [`cut`]), the seed's token count ([`tokens`]), and
//! a ring buffer ([`ring`]).

pub mod args;
pub mod cut;
pub mod frame;
pub mod ring;
pub mod text;
pub mod tokens;
