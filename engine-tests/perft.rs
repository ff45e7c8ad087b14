//! Perft against counts from independent generators (`engine-tests/data/perft.epd`, made by
//! `scripts/gen_perft_epd.py`), plus an exhaustive consistency walk: at every node the
//! incremental key and bitboards equal a full recomputation, and unmake restores the position.
//!
//! Depths 1-3 run in `cargo test`; depth 4 and the deep start-position counts are `#[ignore]`d
//! (run them with `cargo test --release -- --ignored`, or `scripts/deep_perft.sh`).

use chariot::core::Move;
use chariot::position::{MoveList, Position};
use chariot::tools::perft;

struct Case {
    fen: String,
    counts: Vec<u64>,
    name: String,
}

fn suite() -> Vec<Case> {
    read_suite(include_str!("data/perft.epd"))
}

/// Composed placements (`scripts/gen_composed_perft.py`): pieces where no game puts them.
fn composed_suite() -> Vec<Case> {
    read_suite(include_str!("data/perft-composed.epd"))
}

fn read_suite(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (body, name) = line.split_once('#').unwrap_or((line, ""));
        let mut parts = body.split(';');
        let fen = parts.next().unwrap().trim().to_string();
        let counts: Vec<u64> = parts
            .enumerate()
            .map(|(i, p)| {
                let (depth, n) = p.trim().split_once(' ').expect("a count reads 'Dn count'");
                assert_eq!(
                    depth,
                    format!("D{}", i + 1),
                    "depths are listed in order: {line}"
                );
                n.trim().parse().expect("a count is a number")
            })
            .collect();
        cases.push(Case {
            fen,
            counts,
            name: name.trim().to_string(),
        });
    }
    cases
}

fn check_depths(max_depth: usize) {
    let cases = suite();
    assert!(
        cases.len() >= 40,
        "the suite holds {} positions, expected at least 40",
        cases.len()
    );
    for case in &cases {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for (i, &expected) in case.counts.iter().enumerate().take(max_depth) {
            let depth = i as u32 + 1;
            assert_eq!(
                pos.perft(depth),
                expected,
                "{} ({}) depth {depth}",
                case.fen,
                case.name
            );
        }
    }
}

#[test]
fn suite_depths_1_to_3() {
    check_depths(3);
}

#[test]
fn composed_placements_are_accepted_warned_about_and_counted() {
    let cases = composed_suite();
    assert!(cases.len() >= 300, "{} composed positions", cases.len());
    for case in &cases {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        assert!(
            pos.placement_warning().is_some(),
            "{}: no warning for a composed placement",
            case.fen
        );
        for (i, &expected) in case.counts.iter().enumerate() {
            assert_eq!(
                pos.perft(i as u32 + 1),
                expected,
                "{} depth {}",
                case.fen,
                i + 1
            );
        }
        let depth = case.counts.len().min(2);
        assert_eq!(
            checked_walk(&mut pos, depth as u32),
            case.counts[depth - 1],
            "{}",
            case.fen
        );
    }
    // Every position of the ordinary suite is one a game can reach: no warning.
    for case in suite() {
        let pos = Position::from_fen(&case.fen).unwrap();
        assert_eq!(pos.placement_warning(), None, "{}", case.fen);
    }
}

#[test]
#[ignore = "slow: depth 4 of every suite position"]
fn suite_depth_4() {
    check_depths(4);
}

#[test]
#[ignore = "slow: 133,312,995 leaves"]
fn start_position_depth_5() {
    assert_eq!(Position::startpos().perft(5), 133_312_995);
}

#[test]
#[ignore = "very slow: 5,392,831,844 leaves"]
fn start_position_depth_6() {
    let report = perft::run(&Position::startpos(), 6, 2);
    assert_eq!(report.nodes, 5_392_831_844);
}

/// Walks the whole tree to `depth`, checking every node.
fn checked_walk(pos: &mut Position, depth: u32) -> u64 {
    pos.check_consistency()
        .unwrap_or_else(|e| panic!("{e} at {}", pos.to_fen()));
    let moves: MoveList = pos.legal_moves();
    assert_eq!(
        moves.len() as u64,
        pos.count_legal_moves(),
        "{}",
        pos.to_fen()
    );
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let before = pos.clone();
        let before_fen = pos.to_fen();
        pos.make_move(mv);
        nodes += checked_walk(pos, depth - 1);
        assert_eq!(pos.unmake_move(), Some(mv));
        assert_eq!(*pos, before, "unmake of {mv} at {before_fen}");
        assert_eq!(pos.key(), before.key());
        assert_eq!(pos.to_fen(), before_fen);
    }
    nodes
}

#[test]
fn every_node_is_consistent_and_unmake_is_exact() {
    for case in suite() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        let depth = case.counts.len().min(3);
        let leaves = checked_walk(&mut pos, depth as u32);
        assert_eq!(leaves, case.counts[depth - 1], "{}", case.fen);
    }
}

#[test]
fn threaded_perft_and_divide_agree_with_the_plain_walk() {
    let pos = Position::from_fen(&suite()[20].fen).unwrap();
    let single = perft::run(&pos, 3, 1);
    let threaded = perft::run(&pos, 3, 2);
    assert_eq!(single.nodes, pos.clone().perft(3));
    assert_eq!(threaded.nodes, single.nodes);
    let mut a: Vec<(Move, u64)> = single.divide.clone();
    let mut b = threaded.divide.clone();
    a.sort_by_key(|(m, _)| m.raw());
    b.sort_by_key(|(m, _)| m.raw());
    assert_eq!(a, b);
    assert_eq!(a.len(), pos.legal_moves().len());
}
