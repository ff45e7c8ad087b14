//! The network's evaluation in the engine: the incremental accumulators equal a refresh at
//! every node of perft walks, the vector kernels equal the baseline ones bit for bit, a
//! position and its colour mirror score the same, and the search with the net is
//! deterministic.

use chariot::eval::nnue::{self, Accumulator, Network};
use chariot::position::Position;
use chariot::search::{Limits, search_position};

/// Twenty varied start points: positions of the perft suite with depth-3 counts, and
/// positions reached by pseudo-random games from the start.
fn positions() -> Vec<Position> {
    let mut out: Vec<Position> = include_str!("data/perft.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(";D3"))
        .map(|l| Position::from_fen(l.split(';').next().unwrap().trim()).unwrap())
        .take(14)
        .collect();
    let mut state = 0x9e37_79b9u64;
    while out.len() < 20 {
        let mut pos = Position::startpos();
        for _ in 0..(10 + out.len() * 4) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.make_move(moves.as_slice()[(state >> 33) as usize % moves.len()]);
        }
        if !pos.legal_moves().is_empty() {
            out.push(pos);
        }
    }
    out
}

/// Walks every node to `depth`, checking at each that the accumulator carried down the
/// line equals one built from scratch, and that the vector and baseline paths agree.
fn walk(net: &Network, pos: &mut Position, acc: &Accumulator, depth: u32, nodes: &mut u64) {
    *nodes += 1;
    assert_eq!(*acc, Accumulator::new(net, pos), "at {}", pos.to_fen());
    assert_eq!(
        net.evaluate(acc, pos),
        nnue::evaluate_baseline(net, pos),
        "at {}",
        pos.to_fen()
    );
    if depth == 0 {
        return;
    }
    for &mv in pos.legal_moves().iter() {
        let next = acc.after(net, pos, mv);
        pos.make_move(mv);
        walk(net, pos, &next, depth - 1, nodes);
        pos.unmake_move();
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_at_every_node() {
    let net = nnue::embedded();
    let mut nodes = 0;
    for mut pos in positions() {
        let acc = Accumulator::new(&net, &pos);
        walk(&net, &mut pos, &acc, 3, &mut nodes);
    }
    assert!(nodes > 400_000, "walked {nodes} nodes");
}

#[test]
fn a_position_and_its_colour_mirror_score_the_same() {
    let net = nnue::embedded();
    for pos in positions() {
        for &mv in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.make_move(mv);
            assert_eq!(
                nnue::evaluate(&net, &p),
                nnue::evaluate(&net, &p.colour_mirror()),
                "{}",
                p.to_fen()
            );
        }
    }
}

#[test]
fn searching_with_the_net_is_deterministic_and_differs_from_the_hand_crafted_one() {
    let pos = Position::startpos();
    let limits = |eval| Limits {
        depth: Some(7),
        eval,
        ..Limits::default()
    };
    let nnue = chariot::eval::Evaluator::Nnue(nnue::embedded());
    let a = search_position(&pos, &limits(nnue.clone()), 8);
    let b = search_position(&pos, &limits(nnue), 8);
    assert_eq!((a.nodes, a.best, a.value), (b.nodes, b.best, b.value));
    let hce = search_position(&pos, &limits(chariot::eval::Evaluator::Hce), 8);
    assert_ne!(a.nodes, hce.nodes);
}
