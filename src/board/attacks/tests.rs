//! Tests of the attack tables against step-by-step references.

use super::*;

/// The targets of the steps whose gate is empty in `occupied`, step by step: what the
/// gate-indexed tables must agree with.
fn open_targets(steps: &[Gated; 4], occupied: u128) -> Bitboard {
    let mut bits = 0;
    for step in steps {
        if occupied & step.gate.0 == 0 {
            bits |= step.targets.0;
        }
    }
    Bitboard(bits)
}

#[test]
fn gate_indexed_leapers_agree_with_step_by_step_tests() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..2000 {
        let mut occupied = (random() as u128 | (random() as u128) << 64) & BOARD_MASK;
        // Sparse and dense boards as well as half-full ones.
        match round % 3 {
            0 => occupied &= random() as u128 | (random() as u128) << 64,
            1 => occupied |= random() as u128 | (random() as u128) << 64,
            _ => {}
        }
        occupied &= BOARD_MASK;
        for sq in Square::all() {
            let i = sq.index();
            assert_eq!(
                horse_attacks(sq, occupied),
                open_targets(&HORSE_MOVES[i], occupied)
            );
            assert_eq!(
                horse_attackers(sq, occupied),
                open_targets(&HORSE_ATTACKERS[i], occupied)
            );
            assert_eq!(
                elephant_moves(sq, occupied),
                open_targets(&ELEPHANT_STEPS[i], occupied)
            );
        }
    }
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

fn occupancy(points: &[&str]) -> Occupancy {
    let mut occ = Occupancy::default();
    for p in points {
        occ.toggle(sq(p));
    }
    occ
}

fn names(bb: Bitboard) -> Vec<String> {
    bb.map(|s| s.to_string()).collect()
}

#[test]
fn chariot_stops_at_the_first_piece_each_way() {
    let occ = occupancy(&["e4", "e6", "c4", "e2"]);
    let att = chariot_attacks(sq("e4"), occ);
    assert_eq!(
        names(att),
        ["e2", "e3", "c4", "d4", "f4", "g4", "h4", "i4", "e5", "e6"]
    );
}

#[test]
fn cannon_jumps_exactly_one_screen() {
    let occ = occupancy(&["b2", "b7", "b9", "e2", "h2", "b5"]);
    let att = cannon_captures(sq("b2"), occ);
    // Up the file: screen b5, target b7 (b9 is behind a second piece). Along the rank:
    // screen e2, target h2.
    assert_eq!(names(att), ["h2", "b7"]);
}

/// The next number of a xorshift sequence: random boards, the same in every run.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn horse_span_holds_the_points_a_free_horse_reaches_the_point_from() {
    for sq in Square::all() {
        let from: Vec<Square> = Square::all()
            .filter(|&p| horse_attacks(p, 0).contains(sq))
            .collect();
        let span: Vec<Square> = HORSE_SPAN[sq.index()].collect();
        assert_eq!(span, from, "{sq}");
    }
}

#[test]
fn elephant_points_are_those_the_elephants_reach_from_their_start() {
    for color in Color::BOTH {
        // From the two start points (c0 and g0, or c9 and g9), every point reachable on
        // an empty board.
        let rank = if color == Color::Red { 0 } else { 9 };
        let mut reached = Bitboard::EMPTY
            .with(Square::new(2, rank))
            .with(Square::new(6, rank));
        loop {
            let next = reached.fold(reached, |set, sq| set | elephant_moves_of(color, sq, 0));
            if next == reached {
                break;
            }
            reached = next;
        }
        assert_eq!(reached.count(), 7);
        assert_eq!(ELEPHANT_POINTS[color.index()], reached, "{color:?}");
    }
}

#[test]
fn elephant_moves_all_is_the_union_of_each_elephants_moves() {
    let mut seed = 0x51a3_6b0e_d3c1_27f9u64;
    for round in 0..3000 {
        let a = next_random(&mut seed);
        let b = next_random(&mut seed);
        let occupied = (a as u128 | (b as u128) << 64) & BOARD_MASK;
        // Elephants anywhere on their own side of the river (a few, as in play, or
        // many), each on an occupied point as a real piece would be; in one round of three
        // anywhere at all (composed positions).
        let color = Color::BOTH[round % 2];
        let c = next_random(&mut seed);
        let d = next_random(&mut seed);
        let area = if round % 3 == 0 {
            BOARD_MASK
        } else {
            HOME_HALVES[color.index()].0
        };
        let mut elephants = (c as u128 | (d as u128) << 64) & area;
        if round % 4 < 2 {
            elephants &= (next_random(&mut seed) as u128) << 32 | next_random(&mut seed) as u128;
        }
        let elephants = Bitboard(elephants);
        let occupied = occupied | elephants.0;
        let union = elephants.fold(Bitboard::EMPTY, |set, sq| {
            set | elephant_moves_of(color, sq, occupied)
        });
        assert_eq!(
            elephant_moves_all(color, elephants, occupied),
            union,
            "round {round}"
        );
    }
}

#[test]
fn advisor_moves_all_is_the_union_of_each_advisors_moves() {
    for color in Color::BOTH {
        // The points an advisor stands on in a game (corners and centre), from the diagram,
        // and three a composed position may use (beside the palace, in the other palace).
        let (low, centre, high) = if color == Color::Red {
            (0, 1, 2)
        } else {
            (7, 8, 9)
        };
        let points = [
            (3, low),
            (5, low),
            (4, centre),
            (3, high),
            (5, high),
            (2, 3),
            (4, 6),
            (4, 1 + 8 - centre),
        ]
        .map(|(file, rank)| Square::new(file, rank));
        for subset in 0..1u32 << points.len() {
            let advisors = points
                .iter()
                .enumerate()
                .filter(|(i, _)| subset >> i & 1 != 0)
                .fold(Bitboard::EMPTY, |set, (_, sq)| set.with(*sq));
            let union = advisors.fold(Bitboard::EMPTY, |set, sq| {
                set | ADVISOR_MOVES[color.index()][sq.index()]
            });
            assert_eq!(
                advisor_moves_all(color, advisors),
                union,
                "{color:?} {subset}"
            );
        }
    }
}

#[test]
fn advisors_and_elephants_off_their_points_move_by_their_rules() {
    let red = Color::Red.index();
    let black = Color::Black.index();
    // Into their own palace only, from anywhere next to it.
    assert_eq!(names(ADVISOR_MOVES[red][sq("c3").index()]), ["d2"]);
    assert_eq!(names(ADVISOR_MOVES[red][sq("d1").index()]), ["e0", "e2"]);
    assert!(ADVISOR_MOVES[red][sq("e8").index()].is_empty());
    assert_eq!(
        names(ADVISOR_MOVES[black][sq("e8").index()]),
        ["d7", "f7", "d9", "f9"]
    );
    // An elephant across the river may only step back home.
    assert_eq!(
        names(elephant_moves_of(Color::Black, sq("e4"), 0)),
        ["c6", "g6"]
    );
    assert!(elephant_moves_of(Color::Red, sq("c7"), 0).is_empty());
    assert_eq!(names(elephant_moves_of(Color::Red, sq("b1"), 0)), ["d3"]);
}

/// Slider lookups against a walk along each ray, for every point and many random
/// occupancies: the first piece each way (chariot), the second (cannon), the third.
#[test]
fn slider_lookups_match_a_walk_along_the_rays() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let seed = next_random(&mut seed);
        let bits = (seed as u128 | (seed.rotate_left(23) as u128) << 64) & BOARD_MASK;
        let mut occ = Occupancy::default();
        for sq in Bitboard(bits) {
            occ.toggle(sq);
        }
        for from in Square::all() {
            let (mut slide, mut nth) = (Bitboard::EMPTY, [Bitboard::EMPTY; 3]);
            for &ray in &RAYS[from.index()] {
                // Walk outward: the ray's points sorted by distance from `from`.
                let mut points: Vec<Square> = ray.collect();
                points.sort_by_key(|p| {
                    (p.file() as i32 - from.file() as i32).abs()
                        + (p.rank() as i32 - from.rank() as i32).abs()
                });
                let mut seen = 0;
                for p in points {
                    let occupied = occ.normal >> p.index() & 1 != 0;
                    if seen == 0 {
                        slide |= Bitboard(SQUARE_BITS[p.index()]);
                    }
                    if occupied {
                        if seen < 3 {
                            nth[seen] |= Bitboard(SQUARE_BITS[p.index()]);
                        }
                        seen += 1;
                    }
                }
            }
            let lines = line_attacks(from, occ);
            assert_eq!(lines.slide, slide, "{from}");
            assert_eq!(lines.cannon, nth[1], "{from}");
            assert_eq!(chariot_attacks(from, occ), slide, "{from}");
            assert_eq!(file_slide(from, occ), slide & file_mask(from), "{from}");
            assert_eq!(cannon_captures(from, occ), nth[1], "{from}");
            let empty = !Bitboard(occ.normal);
            assert_eq!(
                cannon_reach(from, occ),
                (nth[1], (slide & empty).count()),
                "{from}"
            );
            assert_eq!(third_blockers(from, occ), nth[2], "{from}");
        }
    }
}

#[test]
fn horse_legs_block_and_attackers_mirror_moves() {
    let occ = occupancy(&["b0", "b1"]);
    assert_eq!(names(horse_attacks(sq("b0"), occ.normal)), ["d1"]);
    let open = occupancy(&["b0"]);
    assert_eq!(
        names(horse_attacks(sq("b0"), open.normal)),
        ["d1", "a2", "c2"]
    );
    // Attackers are exactly the horses whose moves reach the point, for every occupancy
    // tried here.
    for target in Square::all() {
        for blockers in [&[][..], &["e4", "d5", "f3"][..]] {
            let occ = occupancy(blockers);
            for from in Square::all() {
                let moves = horse_attacks(from, occ.normal);
                let attackers = horse_attackers(target, occ.normal);
                assert_eq!(
                    moves.contains(target),
                    attackers.contains(from),
                    "{from} {target}"
                );
            }
        }
    }
}

#[test]
fn elephants_and_advisors_stay_home() {
    let empty = Occupancy::default();
    let (red, black) = (Color::Red, Color::Black);
    assert_eq!(
        names(elephant_moves_of(red, sq("c4"), empty.normal)),
        ["a2", "e2"]
    );
    assert_eq!(
        names(elephant_moves_of(black, sq("c5"), empty.normal)),
        ["a7", "e7"]
    );
    let eye = occupancy(&["d3"]);
    assert_eq!(names(elephant_moves_of(red, sq("c4"), eye.normal)), ["a2"]);
    assert_eq!(
        names(ADVISOR_MOVES[red.index()][sq("e1").index()]),
        ["d0", "f0", "d2", "f2"]
    );
    assert_eq!(names(KING_MOVES[sq("d0").index()]), ["e0", "d1"]);
    assert_eq!(
        names(KING_MOVES[sq("e8").index()]),
        ["e7", "d8", "f8", "e9"]
    );
}

#[test]
fn pawn_moves_of_all_pawns_at_once_match_one_by_one() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2_000 {
        let seed = next_random(&mut seed);
        let pawns = Bitboard((seed as u128 | (seed.rotate_left(29) as u128) << 64) & BOARD_MASK);
        for color in Color::BOTH {
            let one_by_one = pawns
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| acc | pawn_moves(color, sq));
            assert_eq!(pawn_moves_all(color, pawns), one_by_one, "{pawns:?}");
        }
    }
}

#[test]
fn pawns_go_sideways_only_after_the_river() {
    assert_eq!(names(pawn_moves(Color::Red, sq("c3"))), ["c4"]);
    assert_eq!(names(pawn_moves(Color::Red, sq("c5"))), ["b5", "d5", "c6"]);
    assert_eq!(names(pawn_moves(Color::Red, sq("c9"))), ["b9", "d9"]);
    assert_eq!(names(pawn_moves(Color::Black, sq("c6"))), ["c5"]);
    assert_eq!(
        names(pawn_moves(Color::Black, sq("c4"))),
        ["c3", "b4", "d4"]
    );
}

#[test]
fn palaces_are_the_nine_points_around_each_king() {
    for (color, corners) in [(Color::Red, ["d0", "f2"]), (Color::Black, ["d7", "f9"])] {
        let palace = PALACES[color.index()];
        assert_eq!(palace.count(), 9);
        for corner in corners {
            assert!(palace.contains(sq(corner)), "{corner}");
        }
    }
}

#[test]
fn masks_cover_lines() {
    assert_eq!(file_mask(sq("e5")).count(), 10);
    assert_eq!(rank_mask(sq("e5")).count(), 9);
    assert_eq!(names(diagonal_neighbours(sq("a0"))), ["b1"]);
}
