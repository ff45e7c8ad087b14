#!/usr/bin/env python3
"""Chariot's matches and training data on a Ray cluster (a local one by default).

    chariot_cluster.py match   [options] -- CHARIOT_MATCH_ARGS...
    chariot_cluster.py datagen [options] -- CHARIOT_DATAGEN_ARGS...

`match` cuts a `chariot match` into tasks of one opening pair each (`--rounds A-B`), runs them
as Ray tasks, and after each finished task asks `chariot match --merge` for the standing (W/D/L,
Elo, the SPRT's LLR), so the referee, the rules and the statistics stay in the Rust code. When
the SPRT decides, the pending tasks are cancelled. The final PGN and JSON are those of
`chariot match --merge` over all finished shares: the same form as `chariot match --pgn/--json`.

`datagen` runs `chariot datagen --shard I/N` for I in 0..N as Ray tasks; each file comes back to
the driver, is written under a temporary name and renamed when complete (a retried or killed
task never leaves a half or duplicate file), and the driver prints the cluster's positions per
second and the manifest lines `nnue-data/README.md` keeps.

The chariot binary reaches the workers by path (`--binary`, default target/release/chariot;
fine for a local cluster or a shared file system) or, with `--ship`, through Ray's runtime
environment: the binary's folder becomes the tasks' working directory on every node.
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import ray

# A task that fails (its chariot process killed, or its worker lost) is retried this often.
MAX_RETRIES = 3


def fail_once(marker_dir, proc):
    """Fault injection for the tests: the first task to get here kills its own chariot
    process after a moment (so Ray's retry is exercised); later ones run normally."""
    if not marker_dir:
        return
    marker = os.path.join(marker_dir, "failed-once")
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)

    def kill():
        time.sleep(0.5)
        try:
            proc.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass

    threading.Thread(target=kill, daemon=True).start()


def run_chariot(binary, args, cwd):
    """Runs chariot in `cwd`; raises (so Ray retries) unless it succeeds."""
    fault = os.environ.get("CHARIOT_CLUSTER_FAIL_ONCE")
    proc = subprocess.Popen(
        [binary] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    fail_once(fault, proc)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"chariot {' '.join(args[:1])} exited with {proc.returncode}: {err.strip()}")
    return out


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=True)
def play_share(binary, args, rounds, cwd):
    """Plays rounds `rounds` of the match; returns the share's PGN text."""
    cwd = cwd or os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "share.pgn")
        run_chariot(
            binary,
            ["match"] + args + ["--rounds", rounds, "--pgn", pgn, "--no-progress", "--concurrency", "1"],
            cwd,
        )
        with open(pgn) as f:
            return f.read()


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=True)
def generate_shard(binary, args, shard, shards, cwd):
    """Generates shard `shard` of `shards`; returns the file's bytes."""
    cwd = cwd or os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "shard.bin")
        run_chariot(
            binary,
            ["datagen", "-o", out, "--shard", f"{shard}/{shards}", "--no-progress"] + args,
            cwd,
        )
        with open(out, "rb") as f:
            return f.read()


def write_atomically(path, data, mode="w"):
    partial = path + ".partial"
    with open(partial, mode) as f:
        f.write(data)
    os.replace(partial, path)


def strip_option(args, name):
    """Removes `name VALUE` from a command line; returns the value and the rest."""
    out, value, i = [], None, 0
    while i < len(args):
        if args[i] == name and i + 1 < len(args):
            value = args[i + 1]
            i += 2
        elif args[i].startswith(name + "="):
            value = args[i].split("=", 1)[1]
            i += 1
        else:
            out.append(args[i])
            i += 1
    return value, out


def start_ray(opts, binary):
    """Connects to the cluster (or starts a local one); returns the binary's path for the
    tasks and the working directory they run chariot in."""
    kwargs = {"include_dashboard": False, "log_to_driver": False}
    if opts.address in (None, "", "local"):
        kwargs["num_cpus"] = opts.cpus or os.cpu_count()
    else:
        kwargs["address"] = opts.address
    runtime_env = {}
    if os.environ.get("CHARIOT_CLUSTER_FAIL_ONCE"):
        runtime_env["env_vars"] = {"CHARIOT_CLUSTER_FAIL_ONCE": os.environ["CHARIOT_CLUSTER_FAIL_ONCE"]}
    if opts.ship:
        runtime_env["working_dir"] = os.path.dirname(os.path.abspath(binary))
    if runtime_env:
        kwargs["runtime_env"] = runtime_env
    ray.init(**kwargs)
    if opts.ship:
        return "./" + os.path.basename(binary), None
    return os.path.abspath(binary), os.getcwd()


def merge(binary, args, shares_dir, pgn=None, js=None):
    """`chariot match --merge` over the finished shares: its summary text and JSON."""
    files = sorted(glob.glob(os.path.join(shares_dir, "*.pgn")))
    if not files:
        return "", None
    with tempfile.TemporaryDirectory() as tmp:
        out_json = js or os.path.join(tmp, "merged.json")
        cmd = [binary, "match"] + args + ["--merge"] + files + ["--json", out_json]
        if pgn:
            cmd += ["--pgn", pgn]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"chariot match --merge failed: {done.stderr.strip()}")
        with open(out_json) as f:
            return done.stdout, json.load(f)


def progress_line(summary, total):
    s = summary
    # chariot writes null for an Elo it cannot give yet (all wins, all losses).
    elo = "n/a" if s.get("elo") is None else f"{s['elo']:+.1f}"
    error = "n/a" if s.get("elo_error95") is None else f"{s['elo_error95']:.1f}"
    line = (
        f"games {s['games']}/{total}  W/D/L {s['wins']}/{s['draws']}/{s['losses']}  "
        f"Elo {elo} +- {error}"
    )
    if s.get("sprt"):
        p = s["sprt"]
        line += f"  LLR {p['llr']:.2f} [{p['lower']:.2f}, {p['upper']:.2f}] {p['verdict']}"
    return line


def cmd_match(opts, rest):
    binary = opts.binary
    rest = [a for a in rest if a != "--no-progress"]
    pgn_out, rest = strip_option(rest, "--pgn")
    json_out, rest = strip_option(rest, "--json")
    for flag in ("--concurrency", "--rounds", "--resume"):
        if any(a == flag or a.startswith(flag + "=") for a in rest):
            raise SystemExit(f"{flag} is the driver's to set")
    count = subprocess.run(
        [binary, "match"] + rest + ["--count-games"], capture_output=True, text=True
    )
    if count.returncode != 0:
        raise SystemExit(count.stderr.strip())
    total = int(count.stdout.strip())
    work = opts.work_dir or tempfile.mkdtemp(prefix="chariot-cluster-")
    shares = os.path.join(work, "shares")
    os.makedirs(shares, exist_ok=True)
    task_binary, cwd = start_ray(opts, binary)
    pending = {}
    for first in range(1, total + 1, 2):
        rounds = f"{first}-{min(first + 1, total)}"
        if os.path.exists(os.path.join(shares, f"{first:06d}.pgn")):
            continue
        pending[play_share.remote(task_binary, rest, rounds, cwd)] = first
    started = time.time()
    decided = False
    try:
        while pending and not decided:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                first = pending.pop(ref)
                text = ray.get(ref)
                write_atomically(os.path.join(shares, f"{first:06d}.pgn"), text)
            _, summary = merge(binary, rest, shares)
            print(progress_line(summary, total), flush=True)
            sprt = summary.get("sprt")
            decided = bool(sprt) and sprt["verdict"] != "Continue"
    except KeyboardInterrupt:
        print("interrupted: keeping the finished games", flush=True)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    elapsed = time.time() - started
    text, summary = merge(binary, rest, shares, pgn_out, json_out)
    print(text.rstrip())
    if summary:
        print(f"{summary['games']} games in {elapsed:.1f} s "
              f"({60 * summary['games'] / max(elapsed, 1e-9):.1f} games/min)", flush=True)
    if not opts.work_dir:
        shutil.rmtree(work, ignore_errors=True)


def cmd_datagen(opts, rest):
    binary = opts.binary
    if any(a in ("-o", "--output", "--shard", "--append") or a.startswith(("--output=", "--shard="))
           for a in rest):
        raise SystemExit("-o, --shard and --append are the driver's to set")
    rest = [a for a in rest if a != "--no-progress"]
    os.makedirs(opts.out_dir, exist_ok=True)
    task_binary, cwd = start_ray(opts, binary)
    names = {i: os.path.join(opts.out_dir, f"{opts.name}-{i}-of-{opts.shards}.bin")
             for i in range(opts.shards)}
    pending = {generate_shard.remote(task_binary, rest, i, opts.shards, cwd): i
               for i in range(opts.shards) if not os.path.exists(names[i])}
    repo = os.path.dirname(os.path.abspath(binary))
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    started = time.time()
    total = 0
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                i = pending.pop(ref)
                data = ray.get(ref)
                write_atomically(names[i], data, "wb")
                stats = subprocess.run([binary, "datagen", "--stats", names[i]],
                                       capture_output=True, text=True)
                positions = int(stats.stdout.split("positions ")[1].split()[0])
                total += positions
                rate = total / max(time.time() - started, 1e-9)
                digest = hashlib.sha256(data).hexdigest()
                print(f"shard {i}/{opts.shards}: {positions} positions; cluster "
                      f"{rate:.0f} positions/s", flush=True)
                print(f"| `{os.path.basename(names[i])}` | `chariot datagen --shard {i}/{opts.shards} "
                      f"{' '.join(rest)}` | {commit} | {positions} | `{digest}` |", flush=True)
    except KeyboardInterrupt:
        print("interrupted: finished shards are kept", flush=True)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, rest = argv[:cut], argv[cut + 1:]
    else:
        rest = []
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["match", "datagen"])
    parser.add_argument("--address", default="local",
                        help="Ray cluster address ('auto', 'HOST:6379'); 'local' starts one here")
    parser.add_argument("--cpus", type=int, default=None, help="CPUs of a local cluster")
    parser.add_argument("--binary", default="target/release/chariot")
    parser.add_argument("--ship", action="store_true",
                        help="send the binary's folder to the workers as their working directory")
    parser.add_argument("--work-dir", help="match: keep the shares here (a rerun resumes)")
    parser.add_argument("--shards", type=int, default=2, help="datagen: number of shards")
    parser.add_argument("--out-dir", default="nnue-data", help="datagen: where shards go")
    parser.add_argument("--name", default="cluster", help="datagen: file name prefix")
    opts = parser.parse_args(argv)
    if not os.path.exists(opts.binary):
        raise SystemExit(f"no chariot binary at {opts.binary} (cargo build --release)")
    if opts.command == "match":
        cmd_match(opts, rest)
    else:
        cmd_datagen(opts, rest)


if __name__ == "__main__":
    main(sys.argv[1:])
