#!/usr/bin/env python3
"""SPSA tuner for the search's parameters (src/search/params.rs).

Each iteration perturbs every tuned parameter up or down at random by its current step,
plays a short `chariot match` between the two perturbed engines (colours swapped over the
same openings), and moves the parameters toward the side that scored better, by an amount
that shrinks as the iterations go on (simultaneous perturbation stochastic approximation,
Spall 1998). The engine must be a `tune` build (`cargo build --release --features tune
--target-dir target/tune`), whose search parameters are engine options.

Everything lives in one JSON state file, rewritten after each iteration: the settings, the
iteration reached, the values now and a history of every iteration's games. Run it again
with the same --state and it goes on where it stopped (Ctrl-C or a kill loses at most the
iteration under way).

  scripts/spsa.py --state tune.json --params rfp_margin,fp_base,lmr_divisor \\
      --iterations 2000 --games 8 --tc 2+0.02          # start, or go on
  scripts/spsa.py --state tune.json --report             # where the values stand
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101


def engine_tunables(engine):
    """The engine's tunable options: {name: (default, min, max, integer)}, from `uci`."""
    tunables = read_ranges()
    out = subprocess.run(
        [engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    found = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) < 6 or words[:2] != ["option", "name"]:
            continue
        name = words[2]
        if name not in tunables:
            continue
        fields = dict(zip(words[3::2], words[4::2]))
        if fields.get("type") == "spin" and "min" in fields:
            found[name] = (float(fields["default"]), float(fields["min"]), float(fields["max"]), True)
        elif fields.get("type") == "string":
            try:
                found[name] = (float(fields["default"]), None, None, False)
            except ValueError:
                pass
    return found


def new_state(args):
    listed = engine_tunables(args.engine)
    if not listed:
        sys.exit(f"{args.engine} lists no tunable options: build it with --features tune")
    wanted = list(listed) if args.params == "all" else args.params.split(",")
    ranges = read_ranges()
    params = {}
    for name in wanted:
        if name not in listed or name not in ranges:
            sys.exit(f"no tunable parameter {name}")
        default, _, _, integer = listed[name]
        lo, hi, step = ranges[name]
        params[name] = {
            "default": default,
            "value": default,
            "min": lo,
            "max": hi,
            "c_end": step,
            "integer": integer,
        }
    return {
        "engine": args.engine,
        "tc": args.tc,
        "nodes": args.nodes,
        "games": args.games,
        "concurrency": args.concurrency,
        "iterations": args.iterations,
        "r_end": args.r_end,
        "A": 0.1 * args.iterations,
        "seed": args.seed,
        "k": 0,
        "params": params,
        "history": [],
    }


def read_ranges():
    """Each tunable's (min, max, step) from the `tunables!` table in params.rs."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "search", "params.rs")
    ranges = {}
    inside = False
    for line in open(path, encoding="utf-8"):
        text = line.strip()
        if text.startswith("tunables!["):
            inside = True
        elif inside and text.startswith("];"):
            break
        elif inside and text.startswith("("):
            name, lo, hi, step = [w.strip() for w in text.strip("(),").split(",")]
            ranges[name] = (float(lo), float(hi), float(step))
    return ranges


def save(state, path):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(state, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def gains(state, k):
    """Iteration k's (1-based) perturbation size and learning rate for each parameter."""
    n, big_a, r_end = state["iterations"], state["A"], state["r_end"]
    out = {}
    for name, p in state["params"].items():
        c_k = p["c_end"] * (n / k) ** GAMMA
        a_k = r_end * p["c_end"] ** 2 * ((big_a + n) / (big_a + k)) ** ALPHA
        out[name] = (c_k, a_k / c_k**2)
    return out


def shown(p, v):
    v = min(max(v, p["min"]), p["max"])
    return str(int(round(v))) if p["integer"] else f"{v:.4f}"


def play(state, plus, minus, seed):
    """Plays one iteration's games; returns (wins, draws, losses) of `plus` and the reasons."""
    engine = state["engine"]
    with tempfile.TemporaryDirectory() as tmp:
        summary = os.path.join(tmp, "match.json")
        cmd = [engine, "match", "--engine", f"plus={engine}", "--engine", f"minus={engine}"]
        for name, p in state["params"].items():
            cmd += ["--option", f"plus.{name}={shown(p, plus[name])}"]
            cmd += ["--option", f"minus.{name}={shown(p, minus[name])}"]
        cmd += ["--nodes", str(state["nodes"])] if state["nodes"] else ["--tc", state["tc"]]
        cmd += [
            "--games", str(state["games"]), "--concurrency", str(state["concurrency"]),
            "--opening-order", "random", "--seed", str(seed), "--json", summary, "--no-progress",
        ]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(summary):
            sys.exit(f"match failed ({run.returncode}): {run.stderr.strip()[-500:]}")
        with open(summary, encoding="utf-8") as f:
            s = json.load(f)
        if s.get("interrupted"):
            return None
        return (s["wins"], s["draws"], s["losses"]), s.get("reasons", {})


def iterate(state):
    k = state["k"] + 1
    rng = random.Random(state["seed"] * 1_000_003 + k)
    g = gains(state, k)
    delta = {name: rng.choice((-1, 1)) for name in state["params"]}
    plus, minus = {}, {}
    for name, p in state["params"].items():
        c_k = g[name][0]
        plus[name] = min(max(p["value"] + c_k * delta[name], p["min"]), p["max"])
        minus[name] = min(max(p["value"] - c_k * delta[name], p["min"]), p["max"])
    played = play(state, plus, minus, rng.randrange(1 << 31))
    if played is None:
        return False
    (w, d, l), reasons = played
    result = w - l
    for name, p in state["params"].items():
        c_k, r_k = g[name]
        moved = p["value"] + r_k * c_k * result * delta[name]
        p["value"] = min(max(moved, p["min"]), p["max"])
    state["k"] = k
    state["history"].append(
        {"k": k, "wdl": [w, d, l], "reasons": reasons,
         "values": {n: round(p["value"], 4) for n, p in state["params"].items()}}
    )
    return True


def report(state):
    print(f"iteration {state['k']} of {state['iterations']}, {state['games']} games each "
          f"at {('nodes ' + str(state['nodes'])) if state['nodes'] else state['tc']}")
    games = [sum(h["wdl"]) for h in state["history"]]
    forfeits = sum(v for h in state["history"] for r, v in h["reasons"].items() if "time" in r)
    print(f"{sum(games)} games played, {forfeits} lost on time")
    print(f"{'parameter':<24}{'default':>10}{'now':>10}{'change/step':>13}")
    for name, p in state["params"].items():
        change = (p["value"] - p["default"]) / p["c_end"]
        print(f"{name:<24}{p['default']:>10g}{shown(p, p['value']):>10}{change:>+13.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the JSON state file (created if missing)")
    ap.add_argument("--engine", help="a tune build (default target/tune/release/chariot; "
                    "given when going on, it replaces the file's)")
    ap.add_argument("--params", default="all", help="comma-separated names, or 'all'")
    ap.add_argument("--iterations", type=int, default=2000, help="the whole run's iterations")
    ap.add_argument("--games", type=int, default=8, help="games per iteration (even)")
    ap.add_argument("--tc", default="2+0.02", help="time control of the games")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of --tc")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--r-end", type=float, default=0.01, help="the end learning rate (per step²)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--run", type=int, default=0, help="stop after this many iterations (0: all)")
    ap.add_argument("--report", action="store_true", help="print where the values stand and exit")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state, encoding="utf-8") as f:
            state = json.load(f)
        if args.engine:
            state["engine"] = args.engine
    elif args.report:
        sys.exit(f"no state file {args.state}")
    else:
        if args.games < 2 or args.games % 2:
            sys.exit("--games must be even and at least 2")
        args.engine = args.engine or "target/tune/release/chariot"
        state = new_state(args)
        save(state, args.state)
    if args.report:
        report(state)
        return

    stopping = []
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    done = 0
    while state["k"] < state["iterations"] and not stopping and (args.run == 0 or done < args.run):
        if not iterate(state):
            break
        save(state, args.state)
        done += 1
        h = state["history"][-1]
        print(f"iteration {h['k']}: plus W/D/L {'/'.join(map(str, h['wdl']))}", flush=True)
    report(state)


if __name__ == "__main__":
    main()
