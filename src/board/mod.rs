//! The board layer: `u128` bitboards, precomputed attack tables and Zobrist keys.
//!
//! Nothing here knows about positions or rules beyond how each piece moves.

pub mod attacks;
pub mod bitboard;
pub mod zobrist;

pub use attacks::Occupancy;
pub use bitboard::Bitboard;
