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
fine for a local cluster or a shared file system; a machine whose copy lies elsewhere names it in
CHARIOT_BINARY before its `ray start`) or, with `--ship`, through Ray's runtime environment: the
binary's folder becomes the tasks' working directory on every node.

Faults. Before any task runs, one check per live node hashes the binary that node would run:
a node whose binary is missing or differs from the driver's (another version) stops the run
with the node named, so engines never mix; every task checks again before it starts chariot
(a node that joins later is caught too). A task whose chariot process, worker or whole node
dies is retried elsewhere (Ray's lineage); its result is keyed by its rounds or shard, written
atomically, so a retried task can neither be lost nor counted twice. chariot runs with a
parent-death signal, so a killed worker leaves no engine behind.
"""

import argparse
import collections
import ctypes
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
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

# A task that fails (its chariot process killed, or its worker or node lost) is retried this often.
MAX_RETRIES = 3


class BinaryMismatch(Exception):
    """A node's chariot is missing or is not the driver's build: never retried."""


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def node_binary(binary, shipped):
    """The chariot this node runs: the shipped copy, or CHARIOT_BINARY when this node's
    `ray start` named one, or the driver's path."""
    if shipped:
        return binary
    return os.environ.get("CHARIOT_BINARY") or binary


_checked = {}


def digest_of(path):
    """The file's sha256, cached per (path, size, mtime); None if there is no such file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    if key not in _checked:
        _checked[key] = file_digest(path)
    return _checked[key]


def check_binary(binary, shipped, digest, engines=(), cwd=None):
    """Raises BinaryMismatch unless this node's chariot hashes to `digest` and each engine file
    of `engines` ((path, digest) pairs, relative paths from `cwd`) to its own; returns the
    chariot to run."""
    path = node_binary(binary, shipped)
    if shipped and os.path.isfile(path) and not os.access(path, os.X_OK):
        # Ray's package of the working directory does not keep the executable bit.
        os.chmod(path, os.stat(path).st_mode | 0o111)
    checks = [("chariot", path, digest)] + [
        (f"engine {e}", os.path.join(cwd or os.getcwd(), e), d) for e, d in engines]
    for what, file, want in checks:
        have = digest_of(file)
        if have == want:
            continue
        where = f"node {node_name()}"
        if have is None:
            raise BinaryMismatch(f"{where}: no {what} binary at {os.path.abspath(file)}")
        raise BinaryMismatch(
            f"{where}: {what} at {os.path.abspath(file)} has sha256 {have[:16]}…, the "
            f"driver's has {want[:16]}… (another version)")
    return path


def engine_files(args, base):
    """The engines of a match that are files here (the first word of each --engine's command),
    as (path as given, sha256) pairs; `base` is the folder relative paths start from."""
    out = []
    for i, a in enumerate(args):
        spec = args[i + 1] if a == "--engine" and i + 1 < len(args) else (
            a.split("=", 1)[1] if a.startswith("--engine=") else None)
        if not spec or "=" not in spec:
            continue
        words = spec.split("=", 1)[1].split()
        if words and os.path.isfile(os.path.join(base, words[0])):
            pair = (words[0], file_digest(os.path.join(base, words[0])))
            if pair not in out:
                out.append(pair)
    return out


def node_name():
    """This node as `address:node manager port` (unique even for several nodes on one machine)."""
    node_id = ray.get_runtime_context().get_node_id()
    for n in ray.nodes():
        if n["NodeID"] == node_id:
            return f"{n['NodeManagerAddress']}:{n['NodeManagerPort']}"
    return node_id[:12]


def die_with_parent():
    """In the chariot child: SIGKILL when the worker that started it dies (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


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


def run_chariot(task, args, cwd):
    """Runs chariot in `cwd` after checking its hash and the engines'; raises (so Ray retries)
    unless it succeeds. `task` is (binary, shipped, digest, engines)."""
    binary = check_binary(*task, cwd=cwd)
    fault = os.environ.get("CHARIOT_CLUSTER_FAIL_ONCE")
    proc = subprocess.Popen(
        [binary] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=die_with_parent,
    )
    fail_once(fault, proc)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"chariot {' '.join(args[:1])} exited with {proc.returncode}: {err.strip()}")
    return out


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=[RuntimeError])
def play_share(task, args, rounds, cwd):
    """Plays rounds `rounds` of the match; returns the node's name and the share's PGN text."""
    cwd = cwd or os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "share.pgn")
        run_chariot(
            task,
            ["match"] + args + ["--rounds", rounds, "--pgn", pgn, "--no-progress", "--concurrency", "1"],
            cwd,
        )
        with open(pgn) as f:
            return node_name(), f.read()


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=[RuntimeError])
def generate_shard(task, args, shard, shards, cwd):
    """Generates shard `shard` of `shards`; returns the node's name and the file's bytes."""
    cwd = cwd or os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "shard.bin")
        run_chariot(
            task,
            ["datagen", "-o", out, "--shard", f"{shard}/{shards}", "--no-progress"] + args,
            cwd,
        )
        with open(out, "rb") as f:
            return node_name(), f.read()


@ray.remote(num_cpus=0, max_retries=0)
def probe_binary(task, cwd):
    """On one node: its name, and None or the reason its chariot cannot be used."""
    try:
        check_binary(*task, cwd=cwd)
        return node_name(), None
    except BinaryMismatch as e:
        return node_name(), str(e)


def verify_nodes(task, cwd):
    """Checks the binaries on every live node; exits naming each node that fails."""
    nodes = [n for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU", 0) > 0]
    probes = [probe_binary.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
        n["NodeID"], soft=False)).remote(task, cwd) for n in nodes]
    results = ray.get(probes)
    bad = [reason for _, reason in results if reason]
    if bad:
        raise SystemExit("refusing to start: " + "; ".join(bad))
    print(f"chariot {task[2][:16]}…{f' and {len(task[3])} engine file(s)' if task[3] else ''} "
          f"on {len(results)} node(s): "
          + ", ".join(sorted(name for name, _ in results)), flush=True)


def task_error(err):
    """The driver's message for a task that failed for good."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BinaryMismatch) or isinstance(err, BinaryMismatch):
        return f"stopped: {cause or err}"
    return f"a task failed after {MAX_RETRIES} retries: {err}"


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


def start_ray(opts, binary, args=()):
    """Connects to the cluster (or starts a local one) and checks the binaries on every node;
    returns the tasks' (binary, shipped, digest, engine files) and the working directory they
    run chariot in (None: the shipped folder)."""
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
    digest = file_digest(binary)
    if opts.ship:
        engines = engine_files(args, os.path.dirname(os.path.abspath(binary)))
        task, cwd = ("./" + os.path.basename(binary), True, digest, engines), None
    else:
        engines = engine_files(args, os.getcwd())
        task, cwd = (os.path.abspath(binary), False, digest, engines), os.getcwd()
    verify_nodes(task, cwd)
    return task, cwd


# Set by Ctrl-C (SIGINT). The handler also raises KeyboardInterrupt as Python's own does, but
# Ray's calls can swallow that exception when it lands inside them; the flag is never lost,
# and `gather` looks at it at least once a second.
INTERRUPTED = threading.Event()


def on_sigint(signum, frame):
    INTERRUPTED.set()
    raise KeyboardInterrupt


def gather(pending, on_result, stop=lambda: False):
    """Waits for the tasks in `pending` (ref -> key), handing each result to
    `on_result(key, value)` until all are done, `stop()` or Ctrl-C; then cancels the rest.
    Returns the tasks per node and the error that ended the run early (None if none)."""
    per_node = collections.Counter()
    error = None
    try:
        while pending and not stop() and not INTERRUPTED.is_set():
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                key = pending.pop(ref)
                try:
                    node, value = ray.get(ref)
                except (ray.exceptions.RayError, BinaryMismatch) as err:
                    error = task_error(err)
                    break
                per_node[node] += 1
                on_result(key, value)
            if error:
                break
    except KeyboardInterrupt:
        INTERRUPTED.set()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    if INTERRUPTED.is_set():
        print("interrupted: the finished tasks are kept", flush=True)
    if per_node:
        print("tasks per node: " + ", ".join(f"{n} {c}" for n, c in sorted(per_node.items())),
              flush=True)
    return per_node, error


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
    task, cwd = start_ray(opts, binary, rest)
    pending = {}
    for first in range(1, total + 1, 2):
        rounds = f"{first}-{min(first + 1, total)}"
        if os.path.exists(os.path.join(shares, f"{first:06d}.pgn")):
            continue
        pending[play_share.remote(task, rest, rounds, cwd)] = first
    started = time.time()
    decided = [False]

    def finished(first, text):
        write_atomically(os.path.join(shares, f"{first:06d}.pgn"), text)
        _, summary = merge(binary, rest, shares)
        print(progress_line(summary, total), flush=True)
        sprt = summary.get("sprt")
        decided[0] = bool(sprt) and sprt["verdict"] != "Continue"

    _, error = gather(pending, finished, lambda: decided[0])
    elapsed = time.time() - started
    text, summary = merge(binary, rest, shares, pgn_out, json_out)
    print(text.rstrip())
    if summary:
        print(f"{summary['games']} games in {elapsed:.1f} s "
              f"({60 * summary['games'] / max(elapsed, 1e-9):.1f} games/min)", flush=True)
    if error:
        raise SystemExit(f"{error}\nthe finished games are kept in {work}; run again with "
                         f"--work-dir {work} to resume" if opts.work_dir else error)
    if not opts.work_dir:
        shutil.rmtree(work, ignore_errors=True)


def cmd_datagen(opts, rest):
    binary = opts.binary
    if any(a in ("-o", "--output", "--shard", "--append") or a.startswith(("--output=", "--shard="))
           for a in rest):
        raise SystemExit("-o, --shard and --append are the driver's to set")
    rest = [a for a in rest if a != "--no-progress"]
    os.makedirs(opts.out_dir, exist_ok=True)
    task, cwd = start_ray(opts, binary)
    names = {i: os.path.join(opts.out_dir, f"{opts.name}-{i}-of-{opts.shards}.bin")
             for i in range(opts.shards)}
    pending = {generate_shard.remote(task, rest, i, opts.shards, cwd): i
               for i in range(opts.shards) if not os.path.exists(names[i])}
    repo = os.path.dirname(os.path.abspath(binary))
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    started = time.time()
    total = [0]

    def finished(i, data):
        write_atomically(names[i], data, "wb")
        stats = subprocess.run([binary, "datagen", "--stats", names[i]],
                               capture_output=True, text=True)
        positions = int(stats.stdout.split("positions ")[1].split()[0])
        total[0] += positions
        rate = total[0] / max(time.time() - started, 1e-9)
        digest = hashlib.sha256(data).hexdigest()
        print(f"shard {i}/{opts.shards}: {positions} positions; cluster "
              f"{rate:.0f} positions/s", flush=True)
        print(f"| `{os.path.basename(names[i])}` | `chariot datagen --shard {i}/{opts.shards} "
              f"{' '.join(rest)}` | {commit} | {positions} | `{digest}` |", flush=True)

    _, error = gather(pending, finished)
    if error:
        raise SystemExit(f"{error}\nthe finished shards are kept; run the same command again")


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
    signal.signal(signal.SIGINT, on_sigint)
    if not os.path.exists(opts.binary):
        raise SystemExit(f"no chariot binary at {opts.binary} (cargo build --release)")
    if opts.command == "match":
        cmd_match(opts, rest)
    else:
        cmd_datagen(opts, rest)


if __name__ == "__main__":
    main(sys.argv[1:])
