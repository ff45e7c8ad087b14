//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The layers, each depending only on the ones above it:
//! - [`core`]: points, sides, pieces, moves;
//! - [`board`]: `u128` bitboards, attack tables, Zobrist keys;
//! - [`position`]: the game state, FEN, legal move generation, notation, SEE;
//! - [`rules`]: the rules judge (game end, repetition verdicts with check and chase);
//! - [`eval`]: the hand-crafted evaluation;
//! - [`search`]: PVS with a shared transposition table and Lazy-SMP threads;
//! - [`protocol`]: the engine process (UCCI and UCI);
//! - [`tools`]: what the command line offers on top (perft, bench, analyze).

pub mod board;
pub mod core;
pub mod eval;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;

pub use crate::core::{Color, Move, Piece, PieceKind, Square};
pub use crate::position::Position;
