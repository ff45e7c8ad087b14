//! `chariot datagen`, `chariot train` and the net options, driven through the built binary:
//! reproducible files, shards that concatenate, a clean Ctrl-C, a killed run that leaves no
//! finished-looking file, corrupt input refused with its offset, a trained net that the
//! engine loads, and a bad net file refused while the engine keeps the one it had.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn chariot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn positions_in(stats: &str) -> u64 {
    stats
        .lines()
        .next()
        .and_then(|l| l.rsplit("positions ").next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in {stats}"))
}

const QUICK: [&str; 4] = ["--nodes", "300", "--no-progress", "--games"];

#[test]
fn datagen_files_are_reproducible_and_shards_concatenate() {
    let dir = scratch("datagen");
    let one = dir.join("one.bin");
    let two = dir.join("two.bin");
    ok(&chariot(
        &[
            &["datagen", "-o", s(&one), "--seed", "7"][..],
            &QUICK,
            &["6"],
        ]
        .concat(),
    ));
    ok(&chariot(
        &[
            &["datagen", "-o", s(&two), "--seed", "7", "--threads", "2"][..],
            &QUICK,
            &["6"],
        ]
        .concat(),
    ));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    assert!(!dir.join("one.bin.partial").exists());
    // Writing over a finished file is refused.
    let again = chariot(&[&["datagen", "-o", s(&one)][..], &QUICK, &["1"]].concat());
    assert!(!again.status.success());

    let a = dir.join("a.bin");
    let b = dir.join("b.bin");
    ok(&chariot(
        &[
            &["datagen", "-o", s(&a), "--shard", "0/2"][..],
            &QUICK,
            &["3"],
        ]
        .concat(),
    ));
    ok(&chariot(
        &[
            &["datagen", "-o", s(&b), "--shard", "1/2"][..],
            &QUICK,
            &["3"],
        ]
        .concat(),
    ));
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let joined = dir.join("joined.bin");
    let bytes = [std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap()].concat();
    std::fs::write(&joined, &bytes).unwrap();
    let count = |p: &Path| positions_in(&ok(&chariot(&["datagen", "--stats", s(p)])));
    assert_eq!(count(&joined), count(&a) + count(&b));
    let stats = ok(&chariot(&["datagen", "--stats", s(&joined)]));
    assert!(stats.contains("parts 2"), "{stats}");

    // A truncated file is refused with the offset of its last block.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 7]).unwrap();
    let out = chariot(&["datagen", "--stats", s(&cut)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let offset = (bytes.len() / 32 - 1) * 32;
    assert!(err.contains(&format!("byte offset {offset}")), "{err}");

    // --append continues a finished file.
    let before = count(&a);
    ok(&chariot(
        &[
            &["datagen", "-o", s(&a), "--append", "--seed", "9"][..],
            &QUICK,
            &["2"],
        ]
        .concat(),
    ));
    assert!(
        count(&a) > before,
        "{} positions after appending to {before}",
        count(&a)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn wait_exit(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "datagen did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn interrupted_runs_keep_finished_games_and_killed_runs_look_unfinished() {
    let dir = scratch("interrupt");
    let out = dir.join("int.bin");
    let start = |path: &Path| {
        Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["datagen", "-o", s(path), "--nodes", "300", "--no-progress"])
            .args(["--games", "100000"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut child = start(&out);
    std::thread::sleep(Duration::from_millis(2500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(wait_exit(&mut child, Duration::from_secs(30)).success());
    let stats = ok(&chariot(&["datagen", "--stats", s(&out)]));
    assert!(positions_in(&stats) > 0, "{stats}");
    assert!(!dir.join("int.bin.partial").exists());

    let killed = dir.join("killed.bin");
    let mut child = start(&killed);
    std::thread::sleep(Duration::from_millis(1000));
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        !killed.exists(),
        "a killed run left a finished-looking file"
    );
    assert!(dir.join("killed.bin.partial").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trained_net_loads_in_the_engine_and_a_bad_one_is_refused() {
    let dir = scratch("train");
    let data = dir.join("d.bin");
    ok(&chariot(
        &[
            &["datagen", "-o", s(&data), "--threads", "2"][..],
            &QUICK,
            &["8"],
        ]
        .concat(),
    ));
    let net = dir.join("n.nnue");
    let again = dir.join("n2.nnue");
    let train = |out: &Path| {
        ok(&chariot(&[
            "train",
            s(&data),
            "-o",
            s(out),
            "--epochs",
            "2",
            "--batch",
            "256",
            "--no-progress",
        ]))
    };
    let report = train(&net);
    assert!(report.contains("validation loss"), "{report}");
    train(&again);
    assert_eq!(std::fs::read(&net).unwrap(), std::fs::read(&again).unwrap());

    let bench = ok(&chariot(&["bench", "--depth", "3", "--net", s(&net)]));
    let hce = ok(&chariot(&["bench", "--depth", "3", "--eval", "hce"]));
    assert_ne!(bench.split(' ').next(), hce.split(' ').next());

    let bad = dir.join("bad.nnue");
    let mut bytes = std::fs::read(&net).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&bad, &bytes).unwrap();
    let out = chariot(&["bench", "--depth", "3", "--net", s(&bad)]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("corrupt"));

    // In the engine: a bad file is reported and the current net stays; a good one loads.
    let mut e = common::Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("setoption name UseNNUE value true");
    e.send(&format!("setoption name EvalFile value {}", s(&bad)));
    let lines = e.until(Duration::from_secs(10), |l| l.contains("error"));
    assert!(lines.last().unwrap().contains("keeping"), "{lines:?}");
    e.send(&format!(
        "setoption name EvalFile value {}",
        s(&dir.join("missing.nnue"))
    ));
    e.until(Duration::from_secs(10), |l| l.contains("error"));
    e.send("position startpos");
    e.send("go depth 4");
    e.expect("bestmove");
    e.send(&format!("setoption name EvalFile value {}", s(&net)));
    e.until(Duration::from_secs(10), |l| l.contains("hash"));
    e.send("go depth 4");
    e.expect("bestmove");
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}
