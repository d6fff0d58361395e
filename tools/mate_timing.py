#!/usr/bin/env python3
"""`go mate` answer times over the problem set of the mate tests, through the USI loop, as a
script solving a tsume collection sees them: one engine process per `USI_Hash` size, `isready`
once, then `position sfen ...` and `go mate <limit>` per problem, timed from sending the `go`
to reading its `checkmate` line.

    cargo build --release
    python3 tools/mate_timing.py [--engine target/release/shomei] [--hash 16 256 1024]
        [--limit-ms 10000] [--rounds 1]

Prints per size: problems solved with a mate of the recorded length, and min/median/max ms.
"""

import argparse
import os
import statistics
import subprocess
import time

PROBLEMS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "mate_problems.txt")


def problems():
    out = []
    with open(PROBLEMS, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            out.append((fields[0], int(fields[1])))
    return out


def run(engine, hash_mb, limit_ms, rounds):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            if line.startswith(prefix):
                return line.rstrip("\n")

    send("usi")
    until("usiok")
    send(f"setoption name USI_Hash value {hash_mb}")
    send("isready")
    until("readyok")
    times, solved, total = [], 0, 0
    for _ in range(rounds):
        for sfen, length in problems():
            send(f"position sfen {sfen}")
            start = time.perf_counter()
            send(f"go mate {limit_ms}")
            answer = until("checkmate")
            times.append((time.perf_counter() - start) * 1000)
            total += 1
            moves = answer.split()[1:]
            if moves and moves[0] not in ("nomate", "timeout") and len(moves) == length:
                solved += 1
    send("quit")
    p.wait(timeout=10)
    return solved, total, times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/shomei")
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 256, 1024])
    ap.add_argument("--limit-ms", type=int, default=10000)
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    for hash_mb in args.hash:
        solved, total, times = run(args.engine, hash_mb, args.limit_ms, args.rounds)
        print(f"USI_Hash {hash_mb:>5}: {solved}/{total} solved at the recorded length; go mate "
              f"min {min(times):.1f} ms, median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
