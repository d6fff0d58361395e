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
import subprocess
import threading
import queue
import time

DEFAULT_POSITIONS = [
    "startpos",
    "sfen ln1gkg1nl/1r1s1s3/pppppppp1/6P1p/4B1b2/2P1P2P1/PP1P1P2P/5S1R1/LNSGKG1NL w - 26",
]


def run(engine, position, algorithm, depth, seconds, hash_mb):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l.strip()) for l in p.stdout], daemon=True).start()

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    send(f"setoption name SearchAlgorithm value {algorithm}")
    send(f"setoption name USI_Hash value {hash_mb}")
    send("isready")
    send(f"position {position}")
    send(f"go depth {depth}")
    deadline = time.time() + seconds
    rows = {}
    stats = {}
    stopped = False
    while True:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            line = None
        if time.time() > deadline and not stopped:
            send("stop")
            stopped = True
        if line is None:
            continue
        w = line.split()
        if line.startswith("info depth") and " pv " in line and "bound" not in line:
            d = int(w[2])
            rows[d] = (int(w[w.index("nodes") + 1]), int(w[w.index("time") + 1]), " ".join(w[w.index("score") + 1:w.index("score") + 3]))
        if line.startswith("info string stats depth="):
            stats[int(w[3].split("=")[1])] = " ".join(w[4:])
        if line.startswith("bestmove"):
            break
    send("quit")
    p.wait()
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
