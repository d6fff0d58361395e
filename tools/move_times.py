#!/usr/bin/env python3
"""How much time each engine spends per move over a game, from the match folders that
`shomei-arena --out DIR` leaves.

Every `DIR/games/*.csa` record is read: the players (`N+` Black, `N-` White), the opening's
length (`'opening: ... (K plies)`: those plies were played by the arena, not the engines, and are
left out), the clock (`'time control: ...;`) and each ply's thinking time in milliseconds
(`'move times (ms): t1 t2 ...`, ply 1 first; `-` is a move whose time was not measured and is
skipped). Records without the move times line (older arenas) are skipped with a warning.

Moves are numbered per engine, from its first move after the opening. Engines are grouped by
name across all the folders given. Printed to stdout, in Markdown: the time control(s), then for
each engine a table of its moves in buckets of ten (count, mean, median, 90th percentile and
maximum in ms) and a summary line (moves, mean, and the share of moves above the byoyomi when
the clock has one).

`--svg FILE` also draws the mean time by move number, one line per engine, with a lighter band
from the 25th to the 75th percentile. Each line stops at the first move number that fewer than
`--min-games` games (default 10) reach, or at `--max-move`. The title is `--title`, or else the
records' time control.

usage: tools/move_times.py [--svg FILE] [--title T] [--max-move N] [--min-games N] DIR [DIR ...]
"""
import argparse
import math
import re
import sys
from pathlib import Path

BUCKET = 10
COLOURS = ["#36c", "#d33", "#393", "#f90", "#93c", "#0aa", "#c6c", "#666"]
MOVE_LINE = re.compile(r"^[+-]\d{4}[A-Z]{2}$")
OPENING_PLIES = re.compile(r"\((\d+) plies\)")
BYOYOMI = re.compile(r"byoyomi ([\d.]+) s")


def parse_record(path):
    """A record's players, clock text, opening length and ply times, or None when it has no move
    times line. Returns a dict with `names` (Black, White),
    `tc` (the time control in words), `opening` (plies), `first` (0 if Black moves first, else 1)
    and `times` (ms per ply, None where not measured)."""
    names = ["?", "?"]
    tc, opening, first, times = "", 0, None, None
    after_position = False
    for line in Path(path).read_text(errors="replace").splitlines():
        line = line.rstrip()
        if line.startswith("N+"):
            names[0] = line[2:]
        elif line.startswith("N-"):
            names[1] = line[2:]
        elif line.startswith("'time control:"):
            tc = line[len("'time control:"):].split(";")[0].strip()
        elif line.startswith("'opening:"):
            found = OPENING_PLIES.findall(line)
            opening = int(found[-1]) if found else 0
        elif line.startswith("'move times (ms):"):
            fields = line[len("'move times (ms):"):].split()
            times = [None if f == "-" else int(f) for f in fields]
        elif line.startswith("P"):
            after_position = True
        elif after_position and first is None and line in ("+", "-"):
            first = 0 if line == "+" else 1
    if times is None:
        return None
    return {"names": names, "tc": tc, "opening": opening, "first": first or 0, "times": times}


def record_paths(folder):
    """The CSA records of a match folder (its `games/`, or the folder itself if it has none)."""
    folder = Path(folder)
    games = folder / "games" if (folder / "games").is_dir() else folder
    paths = sorted(games.glob("*.csa"))
    if not paths:
        print(f"warning: {folder}: no .csa records found", file=sys.stderr)
    return paths


def collect(folders):
    """({engine: {move number: [ms, ...]}}, [time control texts], games read) over all folders.
    Move numbers count each engine's own moves from 1, starting after the opening."""
    by_engine, controls, games = {}, [], 0
    for folder in folders:
        skipped = []
        for path in record_paths(folder):
            rec = parse_record(path)
            if rec is None:
                skipped.append(path.name)
                continue
            games += 1
            if rec["tc"] and rec["tc"] not in controls:
                controls.append(rec["tc"])
            own_moves = [0, 0]
            for ply, ms in enumerate(rec["times"]):
                if ply < rec["opening"]:
                    continue
                side = (rec["first"] + ply) % 2
                own_moves[side] += 1
                if ms is not None:
                    engine = by_engine.setdefault(rec["names"][side], {})
                    engine.setdefault(own_moves[side], []).append(ms)
        if skipped:
            print(
                f"warning: {folder}: skipped {len(skipped)} record(s) without a 'move times (ms)' line "
                f"(written by an older arena): {', '.join(skipped[:5])}{' ...' if len(skipped) > 5 else ''}",
                file=sys.stderr,
            )
    return by_engine, controls, games


def percentile(values, p):
    """The p-th percentile (0-100) of a non-empty list, interpolating between ranks."""
    s = sorted(values)
    rank = (len(s) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(s) - 1)
    return s[low] + (s[high] - s[low]) * (rank - low)


def byoyomi_ms(controls):
    """The byoyomi in ms if the (first) time control has one, else None."""
    for tc in controls:
        m = BYOYOMI.search(tc)
        if m:
            return float(m.group(1)) * 1000
    return None


def table(name, moves, byoyomi):
    """The Markdown table and summary line of one engine's moves ({move number: [ms]})."""
    lines = [f"### {name}", "", "| moves | count | mean ms | median ms | p90 ms | max ms |"]
    lines.append("|---|---|---|---|---|---|")
    last = max(moves)
    for start in range(1, last + 1, BUCKET):
        values = [ms for n in range(start, start + BUCKET) for ms in moves.get(n, [])]
        if values:
            lines.append(
                f"| {start}-{start + BUCKET - 1} | {len(values)} | {sum(values) / len(values):.0f} "
                f"| {percentile(values, 50):.0f} | {percentile(values, 90):.0f} | {max(values)} |"
            )
    every = [ms for values in moves.values() for ms in values]
    summary = f"{name}: {len(every)} moves, mean {sum(every) / len(every):.0f} ms"
    if byoyomi:
        over = sum(ms > byoyomi for ms in every)
        summary += f", {100 * over / len(every):.1f}% above the byoyomi ({byoyomi:.0f} ms)"
    lines += ["", summary, ""]
    return "\n".join(lines)


def nice_step(span, ticks=6):
    """A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def series(moves, min_games, max_move):
    """[(move number, mean, p25, p75)] of one engine, stopping at the first move number reached
    by fewer than `min_games` games, or after `max_move`."""
    points = []
    n = 1
    while len(moves.get(n, [])) >= max(min_games, 1) and (max_move is None or n <= max_move):
        values = moves[n]
        points.append((n, sum(values) / len(values), percentile(values, 25), percentile(values, 75)))
        n += 1
    return points


def svg(lines, title, path):
    """Writes the mean time per move of each engine ([(name, points)]) as a standalone SVG."""
    width, height, margin, legend = 720, 420, 64, 160
    right = width - legend
    x_max = max(p[-1][0] for _, p in lines)
    y_max = max(max(mean, p75) for _, points in lines for _, mean, _, p75 in points) or 1
    x_step, y_step = max(1, round(nice_step(x_max))), nice_step(y_max)
    y_top = math.ceil(y_max / y_step) * y_step
    sx = lambda n: margin + (n - 1) * (right - margin) / max(x_max - 1, 1)
    sy = lambda ms: height - margin - ms * (height - 2 * margin) / y_top
    esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{(margin + right) / 2}" y="24" text-anchor="middle" font-size="15">{esc(title)}</text>',
    ]
    for i in range(round(y_top / y_step) + 1):
        y = i * y_step
        label = f"{y:.0f}" if y_step >= 1 else f"{y:.2g}"
        parts.append(f'<line x1="{margin - 4}" y1="{sy(y):.1f}" x2="{right}" y2="{sy(y):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{margin - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{label}</text>')
    for n in sorted({1, *range(x_step, x_max + 1, x_step)}):
        parts.append(f'<line x1="{sx(n):.1f}" y1="{height - margin}" x2="{sx(n):.1f}" y2="{height - margin + 4}" stroke="black"/>')
        parts.append(f'<text x="{sx(n):.1f}" y="{height - margin + 17}" text-anchor="middle">{n}</text>')
    parts += [
        f'<line x1="{margin}" y1="{height - margin}" x2="{right}" y2="{height - margin}" stroke="black"/>',
        f'<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{height - margin}" stroke="black"/>',
        f'<text x="{(margin + right) / 2}" y="{height - 20}" text-anchor="middle">the engine\'s own move number after the opening</text>',
        f'<text x="16" y="{height / 2}" transform="rotate(-90 16 {height / 2})" text-anchor="middle">'
        "time per move, ms (mean; band: 25th-75th percentile)</text>",
    ]
    for i, (name, points) in enumerate(lines):
        colour = COLOURS[i % len(COLOURS)]
        upper = [f"{sx(n):.1f},{sy(p75):.1f}" for n, _, _, p75 in points]
        lower = [f"{sx(n):.1f},{sy(p25):.1f}" for n, _, p25, _ in reversed(points)]
        parts.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour}" fill-opacity="0.15" stroke="none"/>')
        mean = " ".join(f"{sx(n):.1f},{sy(m):.1f}" for n, m, _, _ in points)
        parts.append(f'<polyline points="{mean}" fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = margin + 20 * i
        parts.append(f'<line x1="{right + 16}" y1="{ly}" x2="{right + 40}" y2="{ly}" stroke="{colour}" stroke-width="3"/>')
        parts.append(f'<text x="{right + 46}" y="{ly + 4}">{esc(name)}</text>')
    parts.append("</svg>")
    Path(path).write_text("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="match folders written by shomei-arena --out")
    ap.add_argument("--svg", metavar="FILE", help="also write a plot of the mean time by move number")
    ap.add_argument("--title", metavar="T", help="the plot's title (default: the records' time control)")
    ap.add_argument("--max-move", type=int, metavar="N", help="plot moves 1..N at most")
    ap.add_argument("--min-games", type=int, default=10, metavar="N",
                    help="plot a move number only while at least N games reach it (default 10)")
    args = ap.parse_args()

    by_engine, controls, games = collect(args.dirs)
    if not by_engine:
        sys.exit("no measured move times in the records given")
    byoyomi = byoyomi_ms(controls)
    print(f"{games} games; time control: {' / '.join(controls) or 'unknown'}\n")
    for name in sorted(by_engine):
        print(table(name, by_engine[name], byoyomi))

    if args.svg:
        lines = [(name, series(by_engine[name], args.min_games, args.max_move)) for name in sorted(by_engine)]
        lines = [(name, points) for name, points in lines if points]
        if not lines:
            sys.exit(f"nothing to plot: no move is reached by {args.min_games} games (see --min-games)")
        svg(lines, args.title or " / ".join(controls) or "time per move", args.svg)
        print(f"wrote {args.svg}", file=sys.stderr)


if __name__ == "__main__":
    main()
