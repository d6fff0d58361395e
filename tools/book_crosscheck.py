#!/usr/bin/env python3
"""Cross-checks shomei's opening books against YaneuraOu's.

1. Reads BOOK with a plain reader written here (YaneuraOu's text format: `sfen` lines, move
   lines `move ponder [value [depth [count]]]`, `#` and `//` comments) and has `shomei book sort`
   read and rewrite it: every position must come back with the same moves and fields.
2. Asks each engine given (shomei, and YaneuraOu's material edition when --yaneuraou is given)
   for its move in every position of the book, through USI with the book loaded and its
   filters opened (BookDepthLimit 0, BookEvalDiff 99999, both eval limits -99999): every
   answer must be one of the book's moves for that position, and no search may run.

    tools/book_crosscheck.py BOOK --shomei target/release/shomei [--yaneuraou yaneuraou-material]

YaneuraOu takes its book as BookDir + BookFile, so BOOK is copied into a scratch folder as
user_book1.db for it. Prints a summary; exits non-zero on a mismatch.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def read_book(path):
    """{sfen: {move: (ponder, value, depth, count)}} with YaneuraOu's defaults for missing fields."""
    book, current = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n").rstrip()
            if not line or line.startswith("#") or line.startswith("//"):
                continue
            if line.startswith("sfen "):
                current = line[5:].strip()
                book.setdefault(current, {})
                continue
            words = line.split()
            ponder = words[1] if len(words) > 1 else "none"
            if ponder in ("None", "resign"):
                ponder = "none"
            nums = [int(w) for w in words[2:5]] + [0, 0, 1][len(words[2:5]):]
            moves = book[current]
            old = moves.get(words[0])
            count = nums[2] + (old[3] if old else 0)
            moves[words[0]] = (ponder, nums[0], nums[1], count)
    return book


def usi_moves(engine, options, positions, ready_wait=60):
    """The bestmove line and the info lines an engine answers `go` with, per position."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()
    def until(prefix):
        lines = []
        while True:
            l = p.stdout.readline()
            if not l:
                raise RuntimeError(f"{engine} closed its output")
            lines.append(l.rstrip("\n"))
            if l.startswith(prefix):
                return lines
    send("usi")
    until("usiok")
    for name, value in options:
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    send("usinewgame")
    answers = {}
    for sfen in positions:
        send(f"position sfen {sfen}")
        send("go btime 0 wtime 0 byoyomi 2000")
        lines = until("bestmove")
        answers[sfen] = lines
    send("quit")
    p.wait(timeout=10)
    return answers


OPEN_FILTERS = [("BookDepthLimit", 0), ("BookEvalDiff", 99999), ("BookEvalBlackLimit", -99999),
                ("BookEvalWhiteLimit", -99999), ("BookMoves", 10000), ("Threads", 1), ("USI_Hash", 16)]


def searched(lines):
    """Whether an answer came from a search: an info line with nodes above 0."""
    for l in lines:
        w = l.split()
        if w[:1] == ["info"] and "nodes" in w and int(w[w.index("nodes") + 1]) > 0:
            return True
    return False


def check_answers(name, book, answers):
    bad = 0
    for sfen, lines in answers.items():
        move = lines[-1].split()[1]
        if move not in book[sfen] or searched(lines):
            bad += 1
            print(f"{name}: {sfen}: answered {lines[-1]!r}, book moves {sorted(book[sfen])}")
    print(f"{name}: {len(answers) - bad} of {len(answers)} positions answered with a book move, no search")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("book")
    ap.add_argument("--shomei", required=True)
    ap.add_argument("--yaneuraou")
    args = ap.parse_args()
    book = read_book(args.book)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        rewritten = os.path.join(tmp, "sorted.db")
        subprocess.run([args.shomei, "book", "sort", args.book, rewritten], check=True,
                       stderr=subprocess.DEVNULL)
        back = read_book(rewritten)
        same = sum(1 for s in book if book[s] and back.get(s) == book[s])
        want = sum(1 for s in book if book[s])
        print(f"shomei book sort: {same} of {want} positions read back with the same moves and fields")
        failures += want - same
        positions = [s for s in book if book[s]]
        answers = usi_moves(args.shomei, [("BookFile", os.path.abspath(args.book))] + OPEN_FILTERS, positions)
        failures += check_answers("shomei", book, answers)
        if args.yaneuraou:
            book_dir = os.path.join(tmp, "book")
            os.mkdir(book_dir)
            shutil.copy(args.book, os.path.join(book_dir, "user_book1.db"))
            options = [("BookDir", book_dir), ("BookFile", "user_book1.db")] + OPEN_FILTERS
            answers = usi_moves(args.yaneuraou, options, positions)
            failures += check_answers("yaneuraou", book, answers)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
