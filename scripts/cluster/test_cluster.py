"""Tests of the Ray drivers on a local cluster of 2 CPUs (run by scripts/test.sh).

- A match cut into Ray tasks gives the PGN and JSON that one `chariot match` gives for the same
  openings and settings (fixed depth, so the games are the same games).
- Datagen in 2 shards gives files that concatenate into a valid file whose count is the sum of
  the shards', and a task whose chariot process is killed mid-way is retried by Ray and leaves
  no partial file: the result is byte for byte the undisturbed run's.
"""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BINARY = os.path.join(ROOT, "target", "release", "chariot")
DRIVER = os.path.join(HERE, "chariot_cluster.py")


def run(cmd, env=None):
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise AssertionError(f"{cmd[:3]} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def positions(path):
    first = run([BINARY, "datagen", "--stats", path]).splitlines()[0]
    return int(first.rsplit("positions ", 1)[1])


class ClusterTests(unittest.TestCase):
    def test_a_cluster_match_equals_chariot_match(self):
        with tempfile.TemporaryDirectory() as tmp:
            args = ["--engine", f"a={BINARY}", "--engine", f"b={BINARY}",
                    "--option", "b.UseNNUE=true", "--depth", "3", "--games", "4",
                    "--concurrency", "1", "--no-progress"]
            plain_json, plain_pgn = os.path.join(tmp, "p.json"), os.path.join(tmp, "p.pgn")
            run([BINARY, "match"] + args + ["--json", plain_json, "--pgn", plain_pgn])
            ray_json, ray_pgn = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.pgn")
            args = [a for a in args if a not in ("--concurrency", "1")]
            out = run([sys.executable, DRIVER, "match", "--binary", BINARY, "--cpus", "2", "--"]
                      + args + ["--json", ray_json, "--pgn", ray_pgn])
            self.assertIn("games 4/4", out)
            with open(plain_json) as a, open(ray_json) as b:
                self.assertEqual(a.read(), b.read())
            with open(plain_pgn) as a, open(ray_pgn) as b:
                self.assertEqual(a.read(), b.read())

    def test_datagen_shards_concatenate_and_a_killed_task_is_retried(self):
        with tempfile.TemporaryDirectory() as tmp:
            gen = ["--games", "30", "--nodes", "300", "--seed", "5"]
            clean = os.path.join(tmp, "clean")
            run([sys.executable, DRIVER, "datagen", "--binary", BINARY, "--cpus", "2",
                 "--shards", "2", "--out-dir", clean, "--name", "t", "--"] + gen)
            marker = os.path.join(tmp, "marker")
            os.makedirs(marker)
            faulty = os.path.join(tmp, "faulty")
            env = dict(os.environ, CHARIOT_CLUSTER_FAIL_ONCE=marker)
            run([sys.executable, DRIVER, "datagen", "--binary", BINARY, "--cpus", "2",
                 "--shards", "2", "--out-dir", faulty, "--name", "t", "--"] + gen, env=env)
            self.assertTrue(os.path.exists(os.path.join(marker, "failed-once")))
            self.assertEqual(sorted(os.listdir(faulty)), ["t-0-of-2.bin", "t-1-of-2.bin"])
            for name in os.listdir(faulty):
                with open(os.path.join(clean, name), "rb") as a, \
                        open(os.path.join(faulty, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), name)
            parts = [os.path.join(faulty, n) for n in sorted(os.listdir(faulty))]
            joined = os.path.join(tmp, "all.bin")
            with open(joined, "wb") as out:
                for p in parts:
                    with open(p, "rb") as f:
                        out.write(f.read())
            self.assertEqual(positions(joined), sum(positions(p) for p in parts))
            self.assertGreater(positions(joined), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
