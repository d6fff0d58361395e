#!/usr/bin/env python3
"""How much of shomei's transposition table the deepest entries hold over one game (issue 43,
seventeenth screen). Two processes of BIN, built with tt-census-43n.patch, play one game
from the first built-in opening at `go nodes NODES` a move (one thread, so the game is the same
on every run). The patch prints a census of the table at each `go`; this prints Black's.

usage: tt-census-43n.py BIN [NODES] [MAX_PLIES]
"""
import os
import subprocess
import sys

binary = sys.argv[1]
nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 800_000
max_plies = int(sys.argv[3]) if len(sys.argv) > 3 else 320
here = os.path.dirname(os.path.abspath(__file__))
openings = [l.strip() for l in open(os.path.join(here, "../../tools/openings.txt"))
            if l.strip() and not l.startswith("#")]
moves = openings[0].split()[2:]  # "startpos moves ..."


class Engine:
    def __init__(self, census):
        env = dict(os.environ)
        if census:
            env["SHOMEI_TTDIAG"] = "1"
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=None if census else subprocess.DEVNULL, text=True, env=env)
        self.send("usi")
        self.wait("usiok")
        self.send("setoption name USI_Hash value 64")
        self.send("isready")
        self.wait("readyok")
        self.send("usinewgame")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine exited")
            if line.startswith(prefix):
                return line.split()

    def play(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go nodes {nodes}")
        return self.wait("bestmove")[1]


black, white = Engine(True), Engine(False)
while len(moves) < max_plies:
    move = (black if len(moves) % 2 == 0 else white).play(moves)
    if move in ("resign", "win"):
        break
    moves.append(move)
for e in (black, white):
    e.send("quit")
print(f"plies {len(moves)}", file=sys.stderr)
