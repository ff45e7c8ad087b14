//! The search through its library API: mates at the right distance, rules inside the tree,
//! limits and determinism, and never an illegal or missing move.

use chariot::core::Move;
use chariot::position::Position;
use chariot::rules::{RuleSet, Rules};
use chariot::search::threads::SearchPool;
use chariot::search::{Limits, RULE_WIN, SearchResult, Silent, mate_in_moves, search_position};
use chariot::tools::bench;
use std::sync::Arc;

fn position(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

fn to_depth(pos: &Position, depth: i32) -> SearchResult {
    search_position(
        pos,
        &Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        16,
    )
}

#[test]
fn mate_in_one_and_two_at_the_right_distance() {
    let one = to_depth(&position("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", &[]), 5);
    assert_eq!(one.best.unwrap().to_string(), "b0b9");
    assert_eq!(mate_in_moves(one.value), Some(1));

    // 1. a1a8 (the king can only step to f9), 2. a0a9 mate; or 1. a1e1+ Kf9 2. e1e8, when
    // Black has no move (a loss in xiangqi). Once a mate is in sight, quiet moves are no
    // longer pruned by the evaluation (which can never reach a mate score), so the longer
    // mates through checks met first do not hide these.
    for depth in 5..=8 {
        let two = to_depth(&position("4k4/9/9/9/9/9/9/9/R8/R2K5 w", &[]), depth);
        assert_eq!(mate_in_moves(two.value), Some(2), "depth {depth}: {two:?}");
    }

    // The defender sees it too: Black to move after 1. a1a8 is mated in 1.
    let defending = to_depth(&position("4k4/9/9/9/9/9/9/9/R8/R2K5 w", &["a1a8"]), 6);
    assert_eq!(mate_in_moves(defending.value), Some(-1), "{defending:?}");
    assert_eq!(defending.best.unwrap().to_string(), "e9f9");
}

#[test]
fn quiescence_sees_a_quiet_mating_check() {
    // Black could win the pawn with c5g5, but then 1. a0a9 mates: the rook on b8 covers e8,
    // the new one on a9 covers d9 and f9, and nothing can block. At depth 1 Red's reply is
    // already quiescence, whose captures would miss that quiet check.
    let r = to_depth(&position("4k4/1R7/9/9/2r3P2/9/9/9/4A4/R3K4 b", &[]), 1);
    assert_ne!(r.best.unwrap().to_string(), "c5g5", "{r:?}");
    assert_eq!(mate_in_moves(r.value), None, "{r:?}");
}

#[test]
fn stalemating_the_opponent_wins() {
    // Any quiet move leaves Black's king with no move: in xiangqi that is a loss for Black.
    let r = to_depth(&position("3k5/4P4/9/9/9/9/9/9/9/4K4 w", &[]), 4);
    assert_eq!(mate_in_moves(r.value), Some(1), "{r:?}");
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let r = to_depth(&position("3k5/9/9/9/9/9/9/9/9/3RK4 b", &[]), 5);
    assert!(r.best.is_none());
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Red checks with the chariot on a9/a8 while the black king steps e9/e8.
    let line = ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9"];
    let black = position("4k4/9/9/9/9/9/9/9/9/R2K5 w", &line);
    // Black's only move repeats the position Red produced by checking every move: Red loses.
    let r = to_depth(&black, 4);
    assert_eq!(r.best.unwrap().to_string(), "e9e8");
    assert_eq!(r.value, RULE_WIN - 1, "{r:?}");
    // With Red to move one ply earlier, Red avoids the losing repetition.
    let red = position("4k4/9/9/9/9/9/9/9/9/R2K5 w", &line[..4]);
    let r = to_depth(&red, 6);
    assert_ne!(r.best.unwrap().to_string(), "a8a9", "{r:?}");
    assert!(r.value > 0);
}

fn under(pos: &Position, depth: i32, set: RuleSet) -> SearchResult {
    let rules = Rules {
        set,
        ..Rules::default()
    };
    search_position(
        pos,
        &Limits {
            depth: Some(depth),
            rules,
            ..Limits::default()
        },
        16,
    )
}

/// A red chariot chases an unprotected black cannon between b7 and c7.
const CHASE: &str = "4k4/9/2c6/9/9/9/9/1R7/9/5K3 w - - 0 1";
const CHASE_LINE: [&str; 5] = ["b2c2", "c7b7", "c2b2", "b7c7", "b2c2"];

#[test]
fn continuing_a_perpetual_chase_loses_so_the_chaser_varies() {
    // Red to move in the start position again: b2c2 would repeat the chase once more.
    let red = position(CHASE, &CHASE_LINE[..4]);
    let r = under(&red, 6, RuleSet::Asian);
    assert_ne!(r.best.unwrap().to_string(), "b2c2", "{r:?}");
    assert!(r.value > 0, "a chariot against a cannon: {r:?}");
    // Searching b2c2 alone shows why: it is a loss by the rules.
    let mut limits = Limits {
        depth: Some(4),
        search_moves: vec![red.parse_move("b2c2").unwrap()],
        ..Limits::default()
    };
    let r = search_position(&red, &limits, 16);
    assert_eq!(r.value, -(RULE_WIN - 1), "{r:?}");
    // Under the simple rules the same repetition is only a draw.
    limits.rules.set = RuleSet::Simple;
    let r = search_position(&red, &limits, 16);
    assert_eq!(r.value, 0, "{r:?}");
}

#[test]
fn the_side_chased_perpetually_keeps_the_repetition_and_scores_a_win() {
    // Black to move after the chase: stepping back to b7 repeats Red's perpetual chase.
    let black = position(CHASE, &CHASE_LINE);
    let r = under(&black, 5, RuleSet::Asian);
    assert_eq!(r.best.unwrap().to_string(), "c7b7", "{r:?}");
    assert_eq!(r.value, RULE_WIN - 1, "{r:?}");
    // Under the simple rules nothing is won by it.
    let r = under(&black, 5, RuleSet::Simple);
    assert!(r.value < RULE_WIN - 100, "{r:?}");
}

#[test]
fn one_check_one_chase_is_allowed_in_asian_rules_and_loses_in_chinese() {
    // Red alternates a check (a7a9) and a chase of the cannon (a9a7); after three moves of it,
    // a9a7 again repeats the pattern.
    let line = ["a9a7", "e8e9", "a7a9", "e9e8"];
    let red = position("R8/4k4/2c6/9/9/9/9/9/9/3K5 w - - 0 1", &line);
    let mut limits = Limits {
        depth: Some(4),
        search_moves: vec![red.parse_move("a9a7").unwrap()],
        ..Limits::default()
    };
    let asian = search_position(&red, &limits, 16);
    assert!(asian.value > -RULE_WIN + 100, "{asian:?}");
    limits.rules.set = RuleSet::Chinese;
    let chinese = search_position(&red, &limits, 16);
    assert_eq!(chinese.value, -(RULE_WIN - 1), "{chinese:?}");
}

#[test]
fn banned_and_restricted_root_moves_are_respected() {
    let pos = Position::startpos();
    let free = to_depth(&pos, 5).best.unwrap();
    let banned = Limits {
        depth: Some(5),
        ban_moves: vec![free],
        ..Limits::default()
    };
    let r = search_position(&pos, &banned, 16);
    assert!(
        r.best.is_some_and(|m| m != free && pos.is_legal(m)),
        "{r:?}"
    );
    let only = pos.parse_move("b0c2").unwrap();
    let restricted = Limits {
        depth: Some(4),
        search_moves: vec![only],
        ..Limits::default()
    };
    assert_eq!(search_position(&pos, &restricted, 16).best, Some(only));
}

#[test]
fn fixed_node_searches_are_deterministic() {
    let pos = position(bench::POSITIONS[7], &[]);
    let limits = Limits {
        nodes: Some(30_000),
        ..Limits::default()
    };
    let a = search_position(&pos, &limits, 16);
    let b = search_position(&pos, &limits, 16);
    assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
    assert!(a.nodes >= 30_000 && a.nodes < 31_000, "{}", a.nodes);
}

#[test]
fn every_search_returns_a_legal_move_when_one_exists() {
    for fen in bench::POSITIONS {
        let pos = position(fen, &[]);
        for limits in [
            Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
            Limits {
                depth: Some(4),
                multipv: 3,
                ..Limits::default()
            },
        ] {
            let r = search_position(&pos, &limits, 1);
            match r.best {
                Some(mv) => assert!(pos.is_legal(mv), "{fen}: {mv}"),
                None => assert!(pos.legal_moves().is_empty(), "{fen}"),
            }
            if let Some(p) = r.ponder {
                let mut after = pos.clone();
                after.make_move(r.best.unwrap());
                assert!(after.is_legal(p), "{fen}: ponder {p}");
            }
        }
    }
}

#[test]
fn threads_search_together_and_agree_on_legality() {
    let mut pool = SearchPool::new(2, 16);
    for fen in &bench::POSITIONS[..6] {
        let pos = position(fen, &[]);
        let r = pool.search_sync(
            &pos,
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
            Arc::new(Silent),
        );
        assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{fen}");
        assert!(r.depth >= 6, "{r:?}");
    }
    pool.set_threads(3);
    pool.set_hash(4).unwrap();
    assert_eq!(pool.thread_count(), 3);
    let pos = Position::startpos();
    let r = pool.search_sync(
        &pos,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
        Arc::new(Silent),
    );
    assert!(r.best.is_some());
}

#[test]
fn threads_that_share_nodes_still_find_mates_at_the_right_distance() {
    // Several threads meet in the same nodes near the root here (the breadcrumbs reduce and
    // put off moves then): the mates must come out the same as on one thread.
    let mut pool = SearchPool::new(3, 16);
    let cases = [
        ("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", 1),
        ("4k4/9/9/9/9/9/9/9/R8/R2K5 w", 2),
        ("3k5/4P4/9/9/9/9/9/9/9/4K4 w", 1),
    ];
    for (fen, mate) in cases {
        for depth in [8, 12] {
            pool.clear();
            let pos = position(fen, &[]);
            let r = pool.search_sync(
                &pos,
                Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                Arc::new(Silent),
            );
            assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{fen}: {r:?}");
            assert_eq!(
                mate_in_moves(r.value),
                Some(mate),
                "{fen} depth {depth}: {r:?}"
            );
        }
    }
}

#[test]
fn no_capture_limit_is_a_draw() {
    // Red is a chariot up, but 120 plies have passed without a capture.
    let pos = position("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80", &[]);
    let mut moved = pos.clone();
    let mv: Move = moved
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == "a0a1")
        .unwrap();
    moved.make_move(mv);
    assert_eq!(moved.halfmove_clock(), 120);
    let r = to_depth(&pos, 3);
    assert!(
        r.value.abs() < 50,
        "every line reaches the no-capture limit: {r:?}"
    );
}

#[test]
fn an_edge_counts_for_less_as_the_no_capture_clock_runs() {
    // A horse up, both sides with all their defenders, no capture in sight: the same position
    // early in the clock and 100 plies into it. The search's evaluation is drawn toward 0 as
    // the clock runs (half way at the limit), so the side ahead looks for progress; datagen's
    // searches opt out, since their scores label positions that carry no clock.
    let fresh = position("2bakab2/9/9/4p4/9/9/4P4/9/9/N1BAKAB2 w - - 0 60", &[]);
    let late = position("2bakab2/9/9/4p4/9/9/4P4/9/9/N1BAKAB2 w - - 100 60", &[]);
    let (a, b) = (to_depth(&fresh, 4), to_depth(&late, 4));
    assert!(a.value > 0 && b.value > 0, "{a:?} {b:?}");
    assert!(
        b.value < a.value * 3 / 4 && b.value > a.value / 3,
        "{a:?} {b:?}"
    );
    let unscaled = |pos: &Position| {
        search_position(
            pos,
            &Limits {
                depth: Some(4),
                unscaled_eval: true,
                ..Limits::default()
            },
            16,
        )
    };
    assert_eq!(unscaled(&fresh).value, unscaled(&late).value);
}

/// The short bench signature: the node count of `chariot bench --depth 6`. It changes exactly
/// when search or evaluation changes; update it together with the commit's `Bench:` line.
const SHORT_BENCH_DEPTH: i32 = 6;
const SHORT_BENCH_NODES: u64 = 73340;

#[test]
fn short_bench_is_deterministic_and_matches_the_signature() {
    let a = bench::run(SHORT_BENCH_DEPTH);
    let b = bench::run(SHORT_BENCH_DEPTH);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(
        a.per_position.iter().map(|p| p.nodes).collect::<Vec<_>>(),
        b.per_position.iter().map(|p| p.nodes).collect::<Vec<_>>()
    );
    assert_eq!(
        a.nodes, SHORT_BENCH_NODES,
        "bench signature changed: update SHORT_BENCH_NODES"
    );
}

/// The same bench in a 1 MB table at depth 8, where buckets fill and the replacement policy
/// decides what survives: the 16 MB signature alone does not see a change there (one did slip
/// through once). It changes with the short signature, and also when only the table's store
/// changes.
const CROWDED_BENCH_DEPTH: i32 = 8;
const CROWDED_BENCH_HASH_MB: usize = 1;
const CROWDED_BENCH_NODES: u64 = 343892;

#[test]
fn crowded_table_bench_matches_its_signature() {
    let report = bench::run_with(
        CROWDED_BENCH_DEPTH,
        1,
        CROWDED_BENCH_HASH_MB,
        // The hand-crafted evaluation: this guards the table, not the net.
        chariot::eval::Evaluator::Hce,
    );
    assert_eq!(
        report.nodes, CROWDED_BENCH_NODES,
        "crowded-table bench signature changed: update CROWDED_BENCH_NODES"
    );
}
