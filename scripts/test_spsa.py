#!/usr/bin/env python3
"""Tests of the SPSA tuner (scripts/spsa.py) against a real `tune` build of the engine.

Usage: scripts/test_spsa.py [ENGINE] (default target/tune/release/chariot)
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spsa  # noqa: E402

ENGINE = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else "target/tune/release/chariot")


def nodes_at_depth(options, depth=7):
    script = "uci\n" + "".join(f"setoption name {n} value {v}\n" for n, v in options)
    script += f"isready\nposition startpos moves h2e2 h9g7\ngo depth {depth}\n"
    proc = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    nodes = None
    for line in proc.stdout:
        words = line.split()
        if "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()
    return nodes


class TuneBuild(unittest.TestCase):
    def test_lists_the_tunables_with_their_defaults(self):
        listed = spsa.engine_tunables(ENGINE)
        ranges = spsa.read_ranges()
        self.assertEqual(set(listed), set(ranges))
        self.assertEqual(listed["rfp_margin"][0], 125)
        self.assertTrue(listed["rfp_margin"][3])
        self.assertFalse(listed["lmr_base"][3])

    def test_a_set_parameter_changes_the_search(self):
        default = nodes_at_depth([])
        self.assertEqual(default, nodes_at_depth([("lmr_base", "0.75")]))
        self.assertNotEqual(default, nodes_at_depth([("lmr_base", "1.5")]))
        self.assertNotEqual(default, nodes_at_depth([("rfp_margin", "40")]))


class Tuner(unittest.TestCase):
    def run_tuner(self, state, *extra):
        cmd = [sys.executable, os.path.join(HERE, "spsa.py"), "--state", state,
               "--engine", ENGINE, *extra]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)

    def test_runs_saves_and_resumes(self):
        with tempfile.TemporaryDirectory() as tmp:
            state = os.path.join(tmp, "tune.json")
            first = self.run_tuner(state, "--params", "rfp_margin,lmr_base", "--iterations", "50",
                                   "--games", "2", "--nodes", "300", "--concurrency", "2",
                                   "--run", "3")
            self.assertEqual(first.returncode, 0, first.stderr)
            with open(state) as f:
                s = json.load(f)
            self.assertEqual(s["k"], 3)
            self.assertEqual([h["k"] for h in s["history"]], [1, 2, 3])
            self.assertTrue(all(sum(h["wdl"]) == 2 for h in s["history"]))
            self.assertEqual(set(s["params"]), {"rfp_margin", "lmr_base"})
            # An iteration that was not a tie moved every parameter.
            moved = [h for h in s["history"] if h["wdl"][0] != h["wdl"][2]]
            values = [{"rfp_margin": 125, "lmr_base": 0.75}] + [h["values"] for h in s["history"]]
            for h in moved:
                before = values[h["k"] - 1]
                self.assertTrue(all(h["values"][n] != before[n] for n in before), h)
            # Going on: the settings come from the file, not the command line.
            again = self.run_tuner(state, "--run", "1")
            self.assertEqual(again.returncode, 0, again.stderr)
            with open(state) as f:
                s = json.load(f)
            self.assertEqual(s["k"], 4)
            self.assertEqual(s["games"], 2)
            report = self.run_tuner(state, "--report")
            self.assertIn("iteration 4 of 50", report.stdout)
            self.assertIn("8 games played, 0 lost on time", report.stdout)

    def test_refuses_an_unknown_parameter(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = self.run_tuner(os.path.join(tmp, "t.json"), "--params", "no_such_thing",
                                 "--nodes", "300")
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("no tunable parameter no_such_thing", run.stderr)

    def test_steps_shrink_and_stay_positive(self):
        state = {"iterations": 1000, "A": 100.0, "r_end": 0.01,
                 "params": {"x": {"c_end": 10.0}}}
        steps = [spsa.gains(state, k)["x"] for k in (1, 10, 100, 1000)]
        self.assertTrue(all(a[0] > b[0] > 0 for a, b in zip(steps, steps[1:])))
        self.assertAlmostEqual(steps[-1][0], 10.0)
        # What one game's result moves a parameter by, R_k c_k = a_k / c_k, ends at
        # r_end c_end, smaller than at the start.
        self.assertAlmostEqual(steps[-1][0] * steps[-1][1], 0.01 * 10.0)
        self.assertGreater(steps[0][0] * steps[0][1], steps[-1][0] * steps[-1][1])


if __name__ == "__main__":
    unittest.main()
