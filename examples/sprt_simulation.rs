//! Simulated paired matches of a known Elo: the trinomial and pentanomial models' error bars
//! on the same games, and their SPRTs' average length and verdicts (`chariot match` uses the
//! pentanomial model by default; `--stats trinomial` the other).
//!
//! Usage: cargo run --release --example sprt_simulation -- [ELO0 ELO1 RUNS]
//! (defaults 0 10 200: the runs play until each test decides, at most 100,000 games).

use chariot::tools::matches::simulate::{World, error_bars, sprt_runs};
use chariot::tools::matches::stats::Sprt;

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: ELO0 ELO1 RUNS"))
        .collect();
    let elo0 = args.first().copied().unwrap_or(0.0);
    let elo1 = args.get(1).copied().unwrap_or(10.0);
    let runs = args.get(2).copied().unwrap_or(200.0) as u64;
    let sprt = Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    };
    let draw_elo = 250.0;
    println!(
        "draw model: BayesElo drawelo {draw_elo}; SPRT elo0={elo0} elo1={elo1}, alpha=beta=0.05, {runs} runs"
    );
    println!();
    println!("opening bias | 95% error bar over 1000 games: trinomial  pentanomial  ratio");
    for bias in [0.0, 100.0, 200.0, 300.0] {
        let world = World {
            elo: 0.0,
            bias,
            draw_elo,
        };
        let (mut tri, mut penta) = (0.0, 0.0);
        for seed in 0..20 {
            let (t, p) = error_bars(&world, 500, seed);
            tri += t / 20.0;
            penta += p / 20.0;
        }
        println!(
            "{bias:>12} | {:>47.1} {penta:>12.1} {:>6.3}",
            tri,
            penta / tri
        );
    }
    println!();
    println!(
        "opening bias  true Elo | SPRT games (mean): trinomial  pentanomial  ratio | H1 accepted: trinomial  pentanomial"
    );
    for bias in [100.0, 200.0, 300.0] {
        for target in [elo0, elo1] {
            let world = calibrated(target, bias, draw_elo);
            let truth = world.logistic_elo(400_000, 5);
            let (tri, penta) = sprt_runs(&world, &sprt, runs, 100_000, 17);
            println!(
                "{bias:>12} {truth:>9.1} | {:>28.0} {:>12.0} {:>6.3} | {:>22} {:>12}",
                tri.mean_games,
                penta.mean_games,
                penta.mean_games / tri.mean_games,
                format!("{}/{}", tri.accepted_h1, tri.runs),
                format!("{}/{}", penta.accepted_h1, penta.runs),
            );
        }
    }
}

/// A world whose logistic Elo is about `target` (the model's own scale differs: draws and
/// the opening bias pull the expected score towards one half).
fn calibrated(target: f64, bias: f64, draw_elo: f64) -> World {
    let mut world = World {
        elo: target,
        bias,
        draw_elo,
    };
    for _ in 0..6 {
        let got = world.logistic_elo(100_000, 3);
        if got.abs() < 1e-9 {
            break;
        }
        world.elo *= target / got;
    }
    world
}
