#!/usr/bin/env python3
"""Peak resident memory and time of `go mate` on the long classics, through the USI loop.

Starts the engine, sets USI_Hash, answers `isready` (the search table is allocated there), sends
the problem and `go mate <limit>`, and reads the process's peak resident memory (VmHWM in
/proc/<pid>/status, Linux) when the answer comes. One line per run:

    name  hash_mb  result  plies  seconds  peak_rss_mb

    cargo build --release
    python3 tools/mate_memory.py [--engine target/release/shomei] [--hash 4096 8192]
        [--limit-ms 600000] [--problems Microcosmos 新桃花源 メガロポリス] [--parallel N]
"""

import argparse
import concurrent.futures
import subprocess
import time

CLASSICS = {
    "Microcosmos": "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
    "新桃花源": "p2+N3g1/P2R3+pP/g3+BnpP1/lPP1+p3p/+LnnS2+LS+p/G+P1l+Bp+P1+p/3pp1P1g/9/4kSR1s b - 1",
    "メガロポリス": "2G1+n3S/1gnP+lpkP1/3SS2ps/2G+pNG1+r1/2+p+pp+ppL1/1+p+p1+p4/+p+p1+p2N2/2+p2P3/9 b R2L2b 1",
}


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run(engine, name, hash_mb, limit_ms):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"{name}: the engine closed stdout")
            if line.startswith(prefix):
                return line.strip()

    send("usi")
    wait_for("usiok")
    send(f"setoption name USI_Hash value {hash_mb}")
    send("isready")
    wait_for("readyok")
    send(f"position sfen {CLASSICS[name]}")
    start = time.perf_counter()
    send(f"go mate {limit_ms}")
    answer = wait_for("checkmate")
    seconds = time.perf_counter() - start
    peak = peak_rss_mb(p.pid)
    send("quit")
    p.wait(timeout=60)
    words = answer.split()[1:]
    result = words[0] if words and words[0] in ("nomate", "timeout", "notimplemented") else "mate"
    plies = len(words) if result == "mate" else 0
    return f"{name}\t{hash_mb}\t{result}\t{plies}\t{seconds:.1f}\t{peak:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/shomei")
    parser.add_argument("--hash", type=int, nargs="*", default=[4096, 8192])
    parser.add_argument("--limit-ms", type=int, default=600_000)
    parser.add_argument("--problems", nargs="*", default=list(CLASSICS))
    parser.add_argument("--parallel", type=int, default=1, help="runs at once (each uses one core)")
    args = parser.parse_args()
    jobs = [(args.engine, n, h, args.limit_ms) for n in args.problems for h in args.hash]
    print("name\thash_mb\tresult\tplies\tseconds\tpeak_rss_mb", flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        for line in pool.map(lambda j: run(*j), jobs):
            print(line, flush=True)


if __name__ == "__main__":
    main()
