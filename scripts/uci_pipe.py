"""A UCI engine on a pipe, for the scripts that drive one (soak.py, stop_latency.py,
threads_soak.py, hash_cycle.py): send a line, read until a line starts with a prefix (timed),
and the process's figures from /proc (Linux)."""

import os
import subprocess
import time


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.pid = self.proc.pid

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, limit=None):
        """Reads lines until one starts with `prefix`; returns the seconds it took and the
        lines read (the last is that one). Exits the script if the engine ends, or if `limit`
        seconds pass first (checked as lines arrive)."""
        start = time.perf_counter()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return time.perf_counter() - start, lines
            if limit is not None and time.perf_counter() - start > limit:
                raise SystemExit(f"no {prefix} within {limit} s")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def status(pid):
    """The fields of /proc/PID/status."""
    with open(f"/proc/{pid}/status") as f:
        return dict(line.split(":", 1) for line in f if ":" in line)


def rss_mb(pid):
    return int(status(pid)["VmRSS"].split()[0]) / 1024


def threads(pid):
    return int(status(pid)["Threads"])


def fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))
