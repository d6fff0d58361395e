#!/usr/bin/env python3
"""A ShogiHome-style analysis session, timed: MultiPV 3 and `go infinite`, then `stop`,
`setoption name MultiPV value 1` and `go infinite` again, as ShogiHome sends them when the user
changes the number of lines during analysis. Prints, for each session, how many `info ... pv`
lines came, the MultiPV ranks seen, and the gaps between consecutive PV lines (as received here)
after the first second.

    tools/analysis_session.py ENGINE [--seconds S] [--pv-interval MS] [--position ARGS]
"""

import argparse
import statistics
import subprocess
import threading
import time

MIDDLEGAME = "sfen ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--pv-interval", type=int)
    ap.add_argument("--position", default=MIDDLEGAME)
    args = ap.parse_args()
    p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines = []  # (seconds since start, line)
    start = time.monotonic()

    def reader():
        for l in p.stdout:
            lines.append((time.monotonic() - start, l.rstrip("\n")))

    threading.Thread(target=reader, daemon=True).start()

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait_for(prefix, after):
        while not any(l.startswith(prefix) for t, l in lines[after:]):
            time.sleep(0.01)

    send("usi")
    wait_for("usiok", 0)
    if args.pv_interval is not None:
        send(f"setoption name PvInterval value {args.pv_interval}")
    send("setoption name MultiPV value 3")
    send("isready")
    wait_for("readyok", 0)
    sessions = []
    for multipv in (3, 1):
        if multipv == 1:
            send("setoption name MultiPV value 1")
        send(f"position {args.position}")
        mark = len(lines)
        t0 = time.monotonic() - start
        send("go infinite")
        time.sleep(args.seconds)
        send("stop")
        wait_for("bestmove", mark)
        sessions.append((multipv, t0, lines[mark:]))
    send("quit")
    p.wait(timeout=10)
    for multipv, t0, got in sessions:
        pv = [(t - t0, l) for t, l in got if l.startswith("info ") and " pv " in l]
        ranks = sorted({l.split()[l.split().index("multipv") + 1] for _, l in pv if " multipv " in l})
        later = [t for t, _ in pv if t >= 1.0]
        gaps = [b - a for a, b in zip(later, later[1:])]
        bounds = sum(1 for _, l in pv if "lowerbound" in l or "upperbound" in l)
        last = pv[-1][1] if pv else ""
        depth = last.split()[2] if last else "?"
        print(f"MultiPV {multipv}: {len(pv)} pv lines in {args.seconds:.0f} s ({bounds} bounds), ranks {ranks or ['none']}, "
              f"last depth {depth}")
        if gaps:
            print(f"  gaps after 1 s: {len(gaps)}, median {statistics.median(gaps) * 1000:.0f} ms, "
                  f"max {max(gaps) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
