#!/usr/bin/env python3
"""Prepares a ShogiArena SPSA run over shomei's search parameters.

The parameters are those a `tune` build declares as USI spin options (the `tunable!` lines of
src/search/params.rs, named in capitals); their start values and ranges are read from the binary
itself, so the space always matches the build. Writes into DIR:

  engine.yaml    the engine (with an empty working directory: SPSA copies it into the run)
  space.yaml     one integer parameter per tunable option, c_end = range / 20, r_end = 0.002
  openings.txt   random quiet openings from shomei-openings (SPSA reads openings from a file)
  spsa.yaml      the run: fixed nodes per move, 2 games at a time, hash 16 MB, 1 thread

Usage (from the checkout):
  cargo build --release --features tune,material --target-dir target/tune
  cargo build --release -p shomei-arena
  python3 tools/spsa/setup.py DIR --engine target/tune/release/shomei --nodes 10000 --updates 2000
  shogiarena run spsa DIR/spsa.yaml --run-dir DIR/run      # the same command resumes it
The tuned values end in DIR/run/spsa/accepted-best.json; each is then written into params.rs
and accepted only by an SPRT against the previous values.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

SPIN = re.compile(r"^option name ([A-Z][A-Z0-9_]+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$")


def tunables(engine):
    """(name, default, min, max) of every tunable option the engine declares."""
    out = subprocess.run([engine], input="usi\nquit\n", capture_output=True, text=True, timeout=30).stdout
    found = [SPIN.match(line.strip()) for line in out.splitlines()]
    return [(m[1], int(m[2]), int(m[3]), int(m[4])) for m in found if m]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--engine", required=True, help="a shomei binary built with --features tune")
    ap.add_argument("--openings-tool", default="target/release/shomei-openings")
    ap.add_argument("--nodes", type=int, default=10000, help="nodes per move")
    ap.add_argument("--updates", type=int, default=2000, help="SPSA updates (2 game pairs each)")
    ap.add_argument("--openings", type=int, default=5000, help="distinct openings to write")
    ap.add_argument("--plies", type=int, default=8, help="plies per opening")
    ap.add_argument("--seed", type=int, default=1, help="seed of the openings")
    a = ap.parse_args()

    params = tunables(a.engine)
    if not params:
        sys.exit("setup.py: the engine declares no tunable options (build it with --features tune)")
    os.makedirs(os.path.join(a.dir, "engine-wd"), exist_ok=True)
    engine = os.path.abspath(os.path.join(a.dir, "shomei-tune"))
    # A copy: a resumed run needs the very binary it started with.
    shutil.copy2(a.engine, engine)

    with open(os.path.join(a.dir, "openings.txt"), "w") as f:
        subprocess.run(
            [a.openings_tool, "--count", str(a.openings), "--plies", str(a.plies), "--seed", str(a.seed)],
            stdout=f, check=True)

    with open(os.path.join(a.dir, "engine.yaml"), "w") as f:
        f.write(f"name: shomei-tune\nengine_path: {engine}\n")
        f.write(f"working_directory: {os.path.abspath(os.path.join(a.dir, 'engine-wd'))}\n")

    with open(os.path.join(a.dir, "space.yaml"), "w") as f:
        f.write("schema_version: shogiarena.spsa.space.v1\ntarget:\n  protocol: usi_options\nparameters:\n")
        for name, default, lo, hi in params:
            c_end = max(0.5, (hi - lo) / 20)
            f.write(f"  - id: {name}\n    target:\n      option: {name}\n    value_type: int\n")
            f.write(f"    initial: {default}\n    bounds: {{min: {lo}, max: {hi}}}\n")
            f.write(f"    schedule: {{c_end: {c_end:g}, r_end: 0.002}}\n")

    d = os.path.abspath(a.dir)
    with open(os.path.join(a.dir, "spsa.yaml"), "w") as f:
        f.write(f"""experiment_name: shomei-spsa
engines:
  - name: shomei-tune
    engine_path: {d}/engine.yaml
    options:
      USI_Hash: 16
      Threads: 1
rules:
  time_control:
    node_limit: {a.nodes}
    max_wait_ms: 60000
  initial_positions:
    type: file
    source: {d}/openings.txt
    source_format: usi_line
    flip_policy: pair_both
  adjudication:
    max_plies: 320
  repetition_occurrences_to_draw: 4
spsa:
  space: {d}/space.yaml
  num_updates: {a.updates}
  pairs_per_update: 2
  num_parallel: 2
  derived_json_min_interval_s: 30
  algorithm:
    name: classic
    alpha: 0.602
    gamma: 0.101
    A: {{mode: ratio, value: 0.1}}
  variants:
    integer_rounding: stochastic
    apply:
      clear_hash: false
      after_setoption: isready
dashboard:
  enabled: false
system:
  engine_handshake_timeout: 20
""")
    print(f"{len(params)} parameters, {a.openings} openings; run: shogiarena run spsa {d}/spsa.yaml --run-dir {d}/run")


if __name__ == "__main__":
    main()
