#!/usr/bin/env python3
"""`go perft N` timed over USI for several engines, one after another, in rounds.

Usage:
  python3 tools/perft_side_by_side.py [--depth 6] [--rounds 3] --engine NAME=CMD[;OPTION=VALUE...] ...

For each round and engine: `usi`, the options, `isready`, `position startpos`, `go perft N`; the time
runs from sending `go perft` to reading `Nodes searched`, so start-up is not counted. Engines take
turns within a round, so a machine that slows down over the run slows them all alike. The engine
handshake and the `--engine` syntax are those of `side_by_side.py`.

Example (the comparison of the search issue):
  python3 tools/perft_side_by_side.py \\
    --engine 'shomei=target/release/shomei' \\
    --engine 'yaneuraou-material=yaneuraou-material;USI_Hash=64'
"""
import argparse
import time

from side_by_side import Engine, parse_engine


def perft(cmd, options, depth):
    e = Engine(cmd, options)
    e.send("position startpos")
    e.send(f"go perft {depth}")
    start = time.perf_counter()
    while True:
        line = e.lines.get(timeout=600)
        if line is None:
            raise RuntimeError(f"{cmd}: exited before 'Nodes searched'")
        if line.startswith("Nodes searched"):
            break
    seconds = time.perf_counter() - start
    e.quit()
    return int(line.split()[-1]), seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="NAME=CMD[;OPTION=VALUE...]")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    engines = [parse_engine(s) for s in args.engine]
    for r in range(1, args.rounds + 1):
        for name, cmd, options in engines:
            nodes, seconds = perft(cmd, options, args.depth)
            print(f"round {r}  {name:<20} {nodes} nodes in {seconds:.2f} s = {nodes / seconds / 1e6:.1f} M nodes/s",
                  flush=True)


if __name__ == "__main__":
    main()
