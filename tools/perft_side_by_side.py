#!/usr/bin/env python3
"""`go perft N` timed over USI for several engines, one after another, in rounds.

Usage:
  python3 tools/perft_side_by_side.py [--depth 6] [--rounds 3] --engine NAME=CMD[;OPTION=VALUE...] ...

For each round and engine: `usi`, the options, `isready`, `position startpos`, `go perft N`; the time
runs from sending `go perft` to reading `Nodes searched`, so start-up is not counted. Engines take
turns within a round, so a machine that slows down over the run slows them all alike.

Example (the comparison of the search issue):
  python3 tools/perft_side_by_side.py \\
    --engine 'shomei=target/release/shomei' \\
    --engine 'yaneuraou-material=yaneuraou-material;USI_Hash=64'
"""
import argparse
import subprocess
import time


def perft(cmd, options, depth):
    p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def read_until(prefix):
        for line in p.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"{cmd}: exited before '{prefix}'")

    send("usi")
    read_until("usiok")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    send("isready")
    read_until("readyok")
    send("position startpos")
    send(f"go perft {depth}")
    start = time.perf_counter()
    nodes = int(read_until("Nodes searched").split()[-1])
    seconds = time.perf_counter() - start
    send("quit")
    p.wait()
    return nodes, seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="NAME=CMD[;OPTION=VALUE...]")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    engines = []
    for spec in args.engine:
        name, rest = spec.split("=", 1)
        cmd, *opts = rest.split(";")
        engines.append((name, cmd, [tuple(o.split("=", 1)) for o in opts]))
    for r in range(1, args.rounds + 1):
        for name, cmd, options in engines:
            nodes, seconds = perft(cmd, options, args.depth)
            print(f"round {r}  {name:<20} {nodes} nodes in {seconds:.2f} s = {nodes / seconds / 1e6:.1f} M nodes/s",
                  flush=True)


if __name__ == "__main__":
    main()
