#!/usr/bin/env python3
"""Nodes per second and time to each depth of one USI engine at several `Threads` values.

Usage: python3 tools/thread_scaling.py [--engine PATH] [--threads 1,2,4,8,16] [--movetime MS]
                                       [--hash MB] [--option NAME=VALUE ...] [SFEN ...]

For every thread count and position: `usinewgame`, `position`, `go movetime MS`; prints one
line per run with the last depth reached, the nodes, nodes per second, and the time (ms) at
which each depth's first PV line appeared, then per thread count the total nodes per second
(nodes over the engine's own reported time) and its ratio to the first thread count's. Lazy SMP is not deterministic: run it twice to see
the spread.
"""
import argparse
import shlex
import time

from side_by_side import Engine

DEFAULT_POSITIONS = [
    "startpos",
    "sfen ln1gkg1nl/1r1s1s3/pppppppp1/6P1p/4B1b2/2P1P2P1/PP1P1P2P/5S1R1/LNSGKG1NL w - 26",
    "sfen lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21",
    "sfen 4kg2l/2g2s1b1/2pp1pppn/8p/9/+r6PP/1PPPGPP2/1BG4R1/1N1KS2NL w SNL2Psl3p 66",
]


def search(engine, position, movetime):
    engine.send("usinewgame")
    engine.send("isready")
    engine.wait_for("readyok")
    engine.send(f"position {position}")
    start = time.time()
    engine.send(f"go movetime {movetime}")
    depth_times = {}
    depth = nodes = nps = ms = 0
    while True:
        line = engine.lines.get(timeout=movetime / 1000 + 30)
        if line is None:
            raise RuntimeError("engine exited during the search")
        w = line.split()
        if line.startswith("bestmove"):
            break
        if not line.startswith("info") or "nodes" not in w:
            continue
        nodes = int(w[w.index("nodes") + 1])
        if "nps" in w:
            nps = int(w[w.index("nps") + 1])
        if "time" in w:
            ms = int(w[w.index("time") + 1])
        if "depth" in w and " pv " in line:
            d = int(w[w.index("depth") + 1])
            depth = max(depth, d)
            depth_times.setdefault(d, int((time.time() - start) * 1000))
    return depth, nodes, nps, ms, depth_times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/shomei")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--hash", type=int, default=256)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("positions", nargs="*")
    args = ap.parse_args()
    positions = args.positions or DEFAULT_POSITIONS
    extra = [tuple(o.split("=", 1)) for o in args.option]
    first_nps = None
    for threads in [int(t) for t in args.threads.split(",")]:
        engine = Engine(shlex.quote(args.engine), [("Threads", threads), ("USI_Hash", args.hash)] + extra)
        total_nodes = total_ms = 0
        for i, position in enumerate(positions):
            depth, nodes, nps, ms, times = search(engine, position, args.movetime)
            total_nodes += nodes
            total_ms += ms
            shown = " ".join(f"{d}:{t}" for d, t in sorted(times.items()))
            print(f"threads {threads:>2} position {i + 1}: depth {depth:>2} nodes {nodes:>11} "
                  f"nps {nps:>10} depth:ms {shown}", flush=True)
        engine.quit()
        rate = total_nodes * 1000 // max(total_ms, 1)
        first_nps = first_nps or rate
        print(f"threads {threads:>2} total: {rate} nodes/s, {rate / first_nps:.2f}x the first", flush=True)


if __name__ == "__main__":
    main()
