#!/usr/bin/env python3
"""Time from `go` to `bestmove` for each `go` form, as a GUI or script sees it.

Plays the engine against itself from the start position with each form (the position advances
by the engine's own moves, so the positions vary) and prints min / median / max over N moves
per form, with NetworkDelay 0 and with the engine's default. Times are measured here, from
writing the `go` line to reading the `bestmove` line.

    cargo build --release
    python3 tools/go_latency.py [--engine target/release/shomei] [--moves 50]
"""

import argparse
import concurrent.futures
import statistics
import subprocess
import time

FORMS = [
    "go byoyomi 100",
    "go byoyomi 300",
    "go byoyomi 1000",
    "go btime 0 wtime 0 byoyomi 300",
    "go btime 1000 wtime 1000 byoyomi 300",
    "go binc 300 winc 300",
    "go btime 2000 wtime 2000 binc 100 winc 100",
    "go btime 5000 wtime 5000",
    "go movetime 300",
    "go rtime 100",
    "go nodes 20000",
    "go depth 6",
]


class Engine:
    def __init__(self, cmd, delay):
        self.proc = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.send("usi")
        self.wait_for("usiok")
        if delay is not None:
            self.send(f"setoption name NetworkDelay value {delay}")
        self.send("isready")
        self.wait_for("readyok")
        self.send("usinewgame")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed stdout")
            if line.startswith(prefix):
                return line.strip()

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def measure(cmd, delay, go, moves):
    """Times of `moves` answers to `go`, the game restarting whenever it ends."""
    engine = Engine(cmd, delay)
    played, times = [], []
    while len(times) < moves:
        engine.send("position startpos" + (" moves " + " ".join(played) if played else ""))
        start = time.perf_counter()
        engine.send(go)
        best = engine.wait_for("bestmove")
        times.append((time.perf_counter() - start) * 1000)
        move = best.split()[1]
        if move in ("resign", "win") or len(played) > 200:
            played = []
            engine.send("usinewgame")
        else:
            played.append(move)
    engine.quit()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/shomei")
    parser.add_argument("--moves", type=int, default=50)
    parser.add_argument("--forms", nargs="*", default=FORMS)
    parser.add_argument(
        "--parallel", type=int, default=1, help="engines thinking at once, as in a match with that concurrency"
    )
    args = parser.parse_args()
    print(f"engines thinking at once: {args.parallel}")
    print("| go form | NetworkDelay | moves | min ms | median ms | max ms |")
    print("|---|---|---|---|---|---|")
    for go in args.forms:
        for delay, label in ((0, "0"), (None, "default (120)")):
            share = -(-args.moves // args.parallel)
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
                runs = pool.map(lambda _: measure(args.engine, delay, go, share), range(args.parallel))
                t = [x for run in runs for x in run]
            print(
                f"| `{go}` | {label} | {len(t)} | {min(t):.1f} | {statistics.median(t):.1f} | {max(t):.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
