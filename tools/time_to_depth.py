#!/usr/bin/env python3
"""Nodes and time to each depth for the search algorithms (Full, AlphaBeta, Minimax).

Usage: python3 tools/time_to_depth.py [--engine PATH] [--seconds 60] [--depth 10]
                                      [--algorithms Full,AlphaBeta,Minimax] [--hash MB] [--stats]
                                      [SFEN ...]

For every position and algorithm, runs `go depth D` with `SearchAlgorithm` set, waits at most
`--seconds`, and prints the last completed depth's nodes, time and score per depth. `--stats`
also prints the engine's `info string stats` line of each depth (tree size, cutoff and table
hit rates, how often each pruning fired). To compare two builds, run it once with each
`--engine`, one after the other.
"""
import argparse
import queue
import shlex
import time

from side_by_side import Engine

DEFAULT_POSITIONS = [
    "startpos",
    "sfen ln1gkg1nl/1r1s1s3/pppppppp1/6P1p/4B1b2/2P1P2P1/PP1P1P2P/5S1R1/LNSGKG1NL w - 26",
]


def run(engine, position, algorithm, depth, seconds, hash_mb):
    e = Engine(shlex.quote(engine), [("SearchAlgorithm", algorithm), ("USI_Hash", hash_mb)])
    e.send(f"position {position}")
    e.send(f"go depth {depth}")
    deadline = time.time() + seconds
    rows = {}
    stats = {}
    stopped = False
    while True:
        if time.time() > deadline and not stopped:
            e.send("stop")
            stopped = True
        try:
            line = e.lines.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            raise RuntimeError(f"{engine} exited during the search")
        w = line.split()
        if line.startswith("info depth") and " pv " in line and "bound" not in line:
            d = int(w[2])
            rows[d] = (int(w[w.index("nodes") + 1]), int(w[w.index("time") + 1]), " ".join(w[w.index("score") + 1:w.index("score") + 3]))
        if line.startswith("info string stats depth="):
            stats[int(w[3].split("=")[1])] = " ".join(w[4:])
        if line.startswith("bestmove"):
            break
    e.quit()
    return rows, stats, stopped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/shomei")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--algorithms", default="Full,AlphaBeta,Minimax")
    ap.add_argument("--hash", type=int, default=64, help="USI_Hash in MB")
    ap.add_argument("--stats", action="store_true", help="print each depth's `info string stats`")
    ap.add_argument("positions", nargs="*")
    a = ap.parse_args()
    for pos in a.positions or DEFAULT_POSITIONS:
        print(f"position {pos}")
        for algo in a.algorithms.split(","):
            rows, stats, stopped = run(a.engine, pos, algo, a.depth, a.seconds, a.hash)
            for d in sorted(rows):
                n, t, s = rows[d]
                print(f"  {algo:9} depth {d:2}  nodes {n:>12}  time {t/1000:8.3f} s  score {s}")
                if a.stats and d in stats:
                    print(f"            stats {stats[d]}")
            if stopped:
                print(f"  {algo:9} stopped after {a.seconds:.0f} s")


if __name__ == "__main__":
    main()
