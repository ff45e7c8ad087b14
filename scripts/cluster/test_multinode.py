"""Tests of the Ray drivers on a cluster of three nodes on this machine (run by scripts/test.sh).

The cluster is made the way the README makes one of several machines: `ray start --head` and
then `ray start --address HEAD:PORT` for each further node (here with ports of their own, since
they share a host), and the driver joins it with `--address`. On it:

- `match` (with `--ship`) and `datagen` (by a shared path) spread their tasks over all three
  nodes, and give the PGN, JSON and shard files that one plain `chariot match` / `chariot
  datagen --shard` gives for the same seed and openings;
- a node killed mid-run (its raylet and everything under it, chariot included) costs nothing:
  the lost tasks run again elsewhere and every game and shard is there exactly once, and no
  chariot process is left behind;
- a driver interrupted with SIGINT and started again with the same `--work-dir` (match) or
  `--out-dir` (datagen) plays only what is missing and ends with the same files;
- a node whose chariot is missing or another build stops the run at start, named, before any
  game is played.
"""

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BINARY = os.path.join(ROOT, "target", "release", "chariot")
DRIVER = os.path.join(HERE, "chariot_cluster.py")
RAY = os.path.join(os.path.dirname(sys.executable), "ray")
PORT = 22379
ADDRESS = f"127.0.0.1:{PORT}"
# The head notices a dead node after about 1.5 s rather than Ray's default of 30 s or so.
FAST_HEALTH = {"RAY_health_check_period_ms": "500", "RAY_health_check_timeout_ms": "1000",
               "RAY_health_check_failure_threshold": "3"}
MATCH = ["--depth", "3", "--games", "12", "--option", "b.UseNNUE=false"]
DATAGEN = ["--games", "12", "--nodes", "300", "--seed", "11"]


def node_port(i):
    return 23000 + 10 * i


def start_node(i, env=None):
    """Node i (0 is the head) with one CPU and ports of its own."""
    base = node_port(i)
    cmd = [RAY, "start", "--num-cpus", "1", "--object-store-memory", "80000000",
           "--disable-usage-stats", "--node-manager-port", str(base),
           "--object-manager-port", str(base + 1), "--dashboard-agent-listen-port", str(base + 2),
           "--dashboard-agent-grpc-port", str(base + 3), "--runtime-env-agent-port", str(base + 4),
           "--metrics-export-port", str(base + 5), "--min-worker-port", str(24000 + 100 * i),
           "--max-worker-port", str(24099 + 100 * i)]
    if i == 0:
        cmd += ["--head", "--port", str(PORT), "--include-dashboard", "false"]
    else:
        # An address of its own on the loopback network, as a machine of its own would have.
        cmd += ["--address", ADDRESS, "--node-ip-address", f"127.0.0.{i + 1}"]
    # Nodes on one machine share the head's temporary folder (Ray's newest run, linked as
    # /tmp/ray/*_latest), where `ray start --node-ip-address` leaves the address a driver here
    # connects through; the head's is put back, as the head machine of a real cluster would
    # keep it, so the driver uses the head's raylet (and survives a worker node's death).
    latest = (glob.glob("/tmp/ray/*_latest") or ["/tmp/ray/none"])[0]
    cached = os.path.join(latest, "node_ip_address.json")
    before = read(cached) if i and os.path.exists(cached) else None
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **FAST_HEALTH, **(env or {})))
    if done.returncode != 0:
        raise AssertionError(f"ray start of node {i} failed:\n{done.stdout}\n{done.stderr}")
    if i:
        if before is None:
            os.remove(cached)
        else:
            with open(cached, "wb") as f:
                f.write(before)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def tree(pid):
    out = [pid]
    for c in children(pid):
        out += tree(c)
    return out


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def pids_matching(*parts):
    return [int(p) for p in os.listdir("/proc") if p.isdigit()
            and all(part in cmdline(int(p)) for part in parts)]


def raylet(i):
    found = [p for p in pids_matching("raylet", f"--node_manager_port={node_port(i)}")
             if "/raylet/raylet" in cmdline(p)]
    return found[0] if found else None


def kill_node(i, when_running=None, timeout=120):
    """Kills node i's raylet and everything under it (its workers, their chariot processes), as a
    machine losing power would; with `when_running`, first waits until a process whose command
    line holds that text runs on the node. Returns the command lines of the killed processes."""
    pid = raylet(i)
    assert pid, f"no raylet for node {i}"
    deadline = time.time() + timeout
    while when_running and time.time() < deadline:
        if any(when_running in cmdline(p) for p in tree(pid)):
            break
        time.sleep(0.02)
    victims = tree(pid)
    lines = [cmdline(p) for p in victims]
    for p in victims:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(3)  # the head marks the node dead
    return lines


def run(cmd, ok=True, env=None):
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if ok and done.returncode != 0:
        raise AssertionError(f"{cmd[:3]} failed:\n{done.stdout}\n{done.stderr}")
    return done


def read(path):
    with open(path, "rb") as f:
        return f.read()


def nodes_used(out):
    line = [x for x in out.splitlines() if x.startswith("tasks per node: ")][-1]
    return {part.rsplit(" ", 1)[0] for part in line[len("tasks per node: "):].split(", ")}


def tasks_run(out):
    line = [x for x in out.splitlines() if x.startswith("tasks per node: ")][-1]
    return sum(int(part.rsplit(" ", 1)[1]) for part in line[len("tasks per node: "):].split(", "))


class MultiNodeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        subprocess.run([RAY, "stop", "--force"], capture_output=True)
        cls.tmp = tempfile.mkdtemp(prefix="chariot-multinode-")
        # A folder with just the binary: what --ship sends, and the shared path otherwise.
        cls.bin_dir = os.path.join(cls.tmp, "bin")
        os.makedirs(cls.bin_dir)
        cls.binary = os.path.join(cls.bin_dir, "chariot")
        shutil.copy2(BINARY, cls.binary)
        for i in range(3):
            start_node(i)
        # The references: one plain chariot match, and each datagen shard run directly.
        cls.plain = os.path.join(cls.tmp, "plain")
        os.makedirs(cls.plain)
        run([cls.binary, "match", "--engine", f"a={cls.binary}", "--engine", f"b={cls.binary}",
             "--concurrency", "1", "--no-progress", "--pgn", os.path.join(cls.plain, "m.pgn"),
             "--json", os.path.join(cls.plain, "m.json")] + MATCH)
        for s in range(3):
            run([cls.binary, "datagen", "-o", os.path.join(cls.plain, f"d-{s}-of-3.bin"),
                 "--shard", f"{s}/3", "--no-progress"] + DATAGEN)

    @classmethod
    def tearDownClass(cls):
        subprocess.run([RAY, "stop", "--force"], capture_output=True)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def driver(self, command, extra, rest, ok=True, env=None):
        return run([sys.executable, DRIVER, command, "--address", ADDRESS,
                    "--binary", self.binary] + extra + ["--"] + rest, ok, env)

    def match_args(self, name):
        out = os.path.join(self.tmp, name)
        os.makedirs(out, exist_ok=True)
        return out, ["--engine", f"a={self.binary}", "--engine", f"b={self.binary}",
                     "--pgn", os.path.join(out, "m.pgn"), "--json", os.path.join(out, "m.json")] + MATCH

    def assert_match_equals_plain(self, out):
        self.assertEqual(read(os.path.join(out, "m.pgn")), read(os.path.join(self.plain, "m.pgn")))
        self.assertEqual(read(os.path.join(out, "m.json")), read(os.path.join(self.plain, "m.json")))

    def assert_shards_equal_plain(self, out):
        self.assertEqual(sorted(os.listdir(out)), [f"d-{s}-of-3.bin" for s in range(3)])
        for name in os.listdir(out):
            self.assertEqual(read(os.path.join(out, name)), read(os.path.join(self.plain, name)), name)

    def assert_no_engine_left(self):
        time.sleep(1)
        left = pids_matching(" match ", "--rounds") + pids_matching(" datagen ", "--shard")
        self.assertEqual(left, [], [cmdline(p) for p in left])

    def test_1_tasks_spread_over_three_nodes(self):
        out, args = self.match_args("spread")
        done = self.driver("match", ["--ship"], args)
        self.assertIn("on 3 node(s)", done.stdout)
        self.assertEqual(len(nodes_used(done.stdout)), 3, done.stdout)
        self.assert_match_equals_plain(out)
        shards = os.path.join(self.tmp, "spread-data")
        done = self.driver("datagen", ["--shards", "3", "--out-dir", shards, "--name", "d"], DATAGEN)
        self.assertEqual(len(nodes_used(done.stdout)), 3, done.stdout)
        self.assert_shards_equal_plain(shards)
        self.assert_no_engine_left()

    def test_2_a_node_killed_mid_run_loses_nothing(self):
        out, args = self.match_args("killed")
        proc = subprocess.Popen([sys.executable, DRIVER, "match", "--address", ADDRESS, "--binary",
                                 self.binary, "--"] + args, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        killed = kill_node(2, when_running="--rounds")
        stdout, stderr = proc.communicate(timeout=600)
        self.assertEqual(proc.returncode, 0, stdout + stderr)
        self.assertTrue(any("--rounds" in c for c in killed), "no game was running on the node")
        self.assertIn("games 12/12", stdout)
        self.assert_match_equals_plain(out)
        start_node(2)

        shards = os.path.join(self.tmp, "killed-data")
        proc = subprocess.Popen([sys.executable, DRIVER, "datagen", "--address", ADDRESS,
                                 "--binary", self.binary, "--shards", "3", "--out-dir", shards,
                                 "--name", "d", "--"] + DATAGEN,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed = kill_node(1, when_running="--shard")
        stdout, stderr = proc.communicate(timeout=600)
        self.assertEqual(proc.returncode, 0, stdout + stderr)
        self.assertTrue(any("--shard" in c for c in killed), "no shard was running on the node")
        self.assert_shards_equal_plain(shards)
        self.assertFalse([n for n in os.listdir(shards) if n.endswith(".partial")])
        start_node(1)
        self.assert_no_engine_left()

    def test_3_an_interrupted_driver_resumes(self):
        out, args = self.match_args("resumed")
        work = os.path.join(self.tmp, "resumed-work")
        cmd = [sys.executable, DRIVER, "match", "--address", ADDRESS, "--binary", self.binary,
               "--work-dir", work, "--"] + args
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith("games "):
                proc.send_signal(signal.SIGINT)
                break
        stdout, stderr = proc.communicate(timeout=600)
        self.assertIn("interrupted", stdout + stderr)
        played = len(os.listdir(os.path.join(work, "shares")))
        self.assertTrue(1 <= played < 6, f"{played} of 6 shares before the interrupt")
        self.assert_no_engine_left()
        done = run(cmd)
        self.assertIn("games 12/12", done.stdout)
        self.assertEqual(tasks_run(done.stdout), 6 - played, done.stdout)
        self.assert_match_equals_plain(out)

        shards = os.path.join(self.tmp, "resumed-data")
        cmd = [sys.executable, DRIVER, "datagen", "--address", ADDRESS, "--binary", self.binary,
               "--shards", "3", "--out-dir", shards, "--name", "d", "--"] + DATAGEN
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in proc.stdout:
            if line.startswith("shard "):
                proc.send_signal(signal.SIGINT)
                break
        proc.communicate(timeout=600)
        kept = [n for n in os.listdir(shards) if not n.endswith(".partial")]
        self.assertTrue(1 <= len(kept) <= 3, kept)
        self.assert_no_engine_left()
        done = run(cmd)
        self.assertEqual(done.stdout.count("positions; cluster"), 3 - len(kept), done.stdout)
        self.assert_shards_equal_plain(shards)

    def test_4_a_missing_or_other_binary_stops_the_run(self):
        other = os.path.join(self.tmp, "other", "chariot")
        os.makedirs(os.path.dirname(other))
        shutil.copy2(self.binary, other)
        with open(other, "ab") as f:  # still runs, but is not the driver's build
            f.write(b"another build")
        for path, message in [(os.path.join(self.tmp, "nowhere", "chariot"), "no chariot binary at"),
                              (other, "another version")]:
            start_node(3, {"CHARIOT_BINARY": path})
            out, args = self.match_args("refused")
            done = self.driver("match", [], args, ok=False)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn(message, done.stderr)
            self.assertIn(f":{node_port(3)}", done.stderr)
            self.assertFalse(os.path.exists(os.path.join(out, "m.pgn")))
            # --ship sends the driver's own binary, so the same node is fine then.
            shipped = self.driver("match", ["--ship"], args)
            self.assertIn("on 4 node(s)", shipped.stdout)
            self.assert_match_equals_plain(out)
            os.remove(os.path.join(out, "m.pgn"))
            kill_node(3)
        self.assert_no_engine_left()


if __name__ == "__main__":
    unittest.main(verbosity=2)
