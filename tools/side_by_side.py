#!/usr/bin/env python3
"""Depth and nodes/s of USI engines on the same positions with the same time, one engine at a time.

Usage:
  python3 tools/side_by_side.py [--movetime MS] [--bench-set] [--bench-movetime MS] [--per-depth]
                                --engine NAME=CMD[;OPTION=VALUE...] [--engine ...]

For every position and engine: `usi`, the options, `isready`, `usinewgame`, `position`,
`go movetime MS`, and the last `info depth` line before `bestmove` gives the depth, the nodes and
nodes/s. `--bench-set` adds the positions of `shomei bench` (read from src/bench.rs) at
`--bench-movetime` each and prints their sums; `--game-positions` leaves out the composed ones
(a side without its king, more pieces than one set), which YaneuraOu's NNUE build cannot evaluate
(it exits). Engines run one after
another, never side by side, so the figures compare on a quiet machine.

Example (the comparison of the search issue):
  python3 tools/side_by_side.py \\
    --engine 'shomei=target/release/shomei;USI_Hash=64' \\
    --engine 'yaneuraou-material=yaneuraou-material;Threads=1;USI_Hash=64;BookFile=no_book;NetworkDelay=0;NetworkDelay2=0'
"""
import argparse
import pathlib
import re
import subprocess
import threading
import queue
import time

POSITIONS = {
    "startpos": "startpos",
    "middlegame": "sfen ln1gkg1nl/1r1s1s3/pppppppp1/6P1p/4B1b2/2P1P2P1/PP1P1P2P/5S1R1/LNSGKG1NL w - 26",
    "attack": "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
}


class Engine:
    def __init__(self, cmd, options):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("usi")
        self.wait_for("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok", 60)

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait_for(self, word, timeout=30):
        deadline = time.time() + timeout
        while True:
            line = self.lines.get(timeout=max(0.1, deadline - time.time()))
            if line is None:
                raise RuntimeError(f"engine exited before {word}")
            if line.split()[:1] == [word]:
                return line

    def think(self, position, movetime):
        self.send("usinewgame")
        self.send("isready")
        self.wait_for("readyok")
        self.send(f"position {position}")
        self.send(f"go movetime {movetime}")
        # The depth is that of the last line with a PV (engines differ in whether that line is
        # an exact score or the bound of an interrupted iteration); nodes and time come from the
        # last line that counts them.
        last_pv = last_count = None
        # Nodes when each depth's last line with a PV was sent: the tree size to that depth.
        per_depth = {}
        while True:
            line = self.lines.get(timeout=movetime / 1000 + 30)
            if line is None:
                raise RuntimeError("engine exited while thinking")
            w = line.split()
            if w[:2] == ["info", "depth"] and "nodes" in w:
                last_count = w
                if "pv" in w:
                    last_pv = w
                    per_depth[int(w[2])] = int(w[w.index("nodes") + 1])
            if w[:1] == ["bestmove"]:
                break
        if last_pv is None:
            return None
        field = lambda w, k: int(w[w.index(k) + 1]) if k in w else None
        nodes, ms = field(last_count, "nodes"), field(last_count, "time")
        nps = nodes * 1000 // max(ms, 1) if nodes is not None and ms else field(last_count, "nps")
        return {"depth": field(last_pv, "depth"), "seldepth": field(last_pv, "seldepth"), "nodes": nodes, "nps": nps,
                "per_depth": per_depth}

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def parse_engine(spec):
    name, rest = spec.split("=", 1)
    cmd, *opts = rest.split(";")
    return name, cmd, [tuple(o.split("=", 1)) for o in opts if o]


def bench_positions():
    src = pathlib.Path(__file__).resolve().parent.parent / "src" / "bench.rs"
    text = src.read_text()
    body = text[text.index("pub const POSITIONS"):]
    body = body[: body.index("];")]
    return re.findall(r'^\s*"([^"]+)",', body, re.M)


SET = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2, "K": 2}


def is_game_position(position):
    """Both kings on the board and no kind beyond one set's count."""
    words = position.split()
    if words[0] == "startpos":
        return True
    board, hand = words[1], words[3]
    if "K" not in board or "k" not in board:
        return False
    counts = dict.fromkeys(SET, 0)
    for c in board:
        if c.isalpha():
            counts[c.upper()] += 1
    for n, c in re.findall(r"(\d*)([A-Za-z])", "" if hand == "-" else hand):
        counts[c.upper()] += int(n or 1)
    return all(counts[k] <= SET[k] for k in SET)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True, help="NAME=CMD[;OPTION=VALUE...]")
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--bench-set", action="store_true")
    ap.add_argument("--bench-movetime", type=int, default=1000)
    ap.add_argument("--game-positions", action="store_true", help="leave out the composed bench positions")
    ap.add_argument("--per-depth", action="store_true",
                    help="also print the nodes each engine had searched when it finished each depth")
    a = ap.parse_args()
    engines = [parse_engine(s) for s in a.engine]
    print(f"{'position':12} {'engine':22} {'depth':>5} {'seldepth':>8} {'nodes':>12} {'nodes/s':>10}")
    for label, position in POSITIONS.items():
        for name, cmd, opts in engines:
            e = Engine(cmd, opts)
            r = e.think(position, a.movetime)
            e.quit()
            if r:
                print(f"{label:12} {name:22} {r['depth']:>5} {r['seldepth'] or '-':>8} {r['nodes']:>12} {r['nps']:>10}",
                      flush=True)
                if a.per_depth:
                    steps = " ".join(f"{d}:{n}" for d, n in sorted(r["per_depth"].items()))
                    print(f"{'':12} {'':22} nodes by depth {steps}", flush=True)
    if a.bench_set:
        positions = bench_positions()
        if a.game_positions:
            positions = [p for p in positions if is_game_position(p)]
        for name, cmd, opts in engines:
            e = Engine(cmd, opts)
            depths, nodes, ms = [], 0, 0
            for p in positions:
                r = e.think(p, a.bench_movetime)
                if r:
                    depths.append(r["depth"])
                    nodes += r["nodes"] or 0
            e.quit()
            ms = len(positions) * a.bench_movetime
            print(f"{'bench set':12} {name:22} mean depth {sum(depths) / max(len(depths), 1):5.1f} over "
                  f"{len(depths)} positions, {nodes} nodes, {nodes * 1000 // ms} nodes/s at {a.bench_movetime} ms each",
                  flush=True)


if __name__ == "__main__":
    main()
