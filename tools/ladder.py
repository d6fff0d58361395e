#!/usr/bin/env python3
"""The strength-level ladder from the match logs `tools/ladder.sh OUT` leaves: a Markdown table
(level, Elo, interval, games, against whom) and an SVG plot of Elo by level.

Level 0's Elo is its result against Fairy-Stockfish's `Skill Level 0` (the scale's zero); each
measured level above adds its result against the level two below. Elo and 95% intervals are the
arena's pentanomial ones; the interval of a sum adds the half-widths' squares, so it widens up
the chain. Levels between measured ones are interpolated (the engine's `search::skill` table).

usage: tools/ladder.py OUT [SVG]
"""
import math
import re
import sys
from pathlib import Path

ELO = re.compile(r"Elo difference: ([+-][\d.inf]+) \+/- \S+ \(95%: ([+-][\d.inf]+) \.\. ([+-][\d.inf]+)\)\s+\[pentanomial")
SCORE = re.compile(r"^Score of .*?: (\d+) - (\d+) - (\d+)")


def result(log):
    """(elo, low, high, wins, losses, draws) of one match log."""
    text = Path(log).read_text()
    e = ELO.search(text)
    s = next(SCORE.match(l) for l in text.splitlines() if SCORE.match(l))
    elo, low, high = (float(x) for x in e.groups())
    return elo, low, high, *(int(x) for x in s.groups())


def ladder(out):
    """[(level, elo, half_width, games, opponent, w, l, d)] from the logs in `out`."""
    rows = []
    elo, var = 0.0, 0.0
    anchor = result(Path(out) / "anchor_l0_fsf0.log")
    e, lo, hi, w, l, d = anchor
    elo, var = e, ((hi - lo) / 2) ** 2
    rows.append((0, elo, math.sqrt(var), w + l + d, "Fairy-Stockfish Skill Level 0", w, l, d))
    for level in range(2, 21, 2):
        log = Path(out) / f"chain_l{level}_l{level - 2}.log"
        if not log.exists():
            break
        e, lo, hi, w, l, d = result(log)
        elo += e
        var += ((hi - lo) / 2) ** 2
        rows.append((level, elo, math.sqrt(var), w + l + d, f"level {level - 2}", w, l, d))
    return rows


def svg(rows, path):
    """Elo by level with its interval, as a small standalone SVG."""
    width, height, margin = 640, 400, 60
    top = max(r[1] + r[2] for r in rows if math.isfinite(r[2]))
    bottom = min(0.0, min(r[1] - r[2] for r in rows if math.isfinite(r[2])))
    sx = lambda level: margin + level * (width - 2 * margin) / 20
    sy = lambda elo: height - margin - (elo - bottom) * (height - 2 * margin) / (top - bottom)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{margin}" y1="{height - margin}" x2="{width - margin}" y2="{height - margin}" stroke="black"/>',
        f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="black"/>',
        f'<text x="{width / 2}" y="{height - 20}" text-anchor="middle">SkillLevel</text>',
        f'<text x="15" y="{height / 2}" transform="rotate(-90 15 {height / 2})" text-anchor="middle">'
        "Elo (0 = Fairy-Stockfish Skill Level 0, byoyomi 200 ms)</text>",
    ]
    for level in range(0, 21, 2):
        parts.append(f'<text x="{sx(level)}" y="{height - margin + 16}" text-anchor="middle">{level}</text>')
    step = 500
    for elo in range(int(bottom // step) * step, int(top) + step, step):
        if bottom <= elo <= top:
            parts.append(f'<line x1="{margin - 4}" y1="{sy(elo)}" x2="{width - margin}" y2="{sy(elo)}" stroke="#ddd"/>')
            parts.append(f'<text x="{margin - 6}" y="{sy(elo) + 4}" text-anchor="end">{elo}</text>')
    points = " ".join(f"{sx(r[0])},{sy(r[1])}" for r in rows)
    parts.append(f'<polyline points="{points}" fill="none" stroke="#36c" stroke-width="2"/>')
    for level, elo, half, *_ in rows:
        parts.append(f'<line x1="{sx(level)}" y1="{sy(elo - half)}" x2="{sx(level)}" y2="{sy(elo + half)}" stroke="#36c"/>')
        parts.append(f'<circle cx="{sx(level)}" cy="{sy(elo)}" r="4" fill="#36c"/>')
    parts.append("</svg>")
    Path(path).write_text("\n".join(parts) + "\n")


def main():
    out = sys.argv[1]
    rows = ladder(out)
    print("| level | Elo | 95% interval | games | against | W-L-D |")
    print("|---|---|---|---|---|---|")
    for level, elo, half, games, against, w, l, d in rows:
        print(f"| {level} | {elo:+.0f} | ± {half:.0f} | {games} | {against} | {w}-{l}-{d} |")
    if len(sys.argv) > 2:
        svg(rows, sys.argv[2])


if __name__ == "__main__":
    main()
