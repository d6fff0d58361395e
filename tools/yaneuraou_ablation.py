#!/usr/bin/env python3
"""Builds YaneuraOu's material edition with parts of its search switched off or made like
shomei's by an environment variable, to learn what each part is worth to YaneuraOu itself
(issue 43: where its lead over shomei's search at equal evaluation comes from).

It copies the YaneuraOu work tree that `../shared/tools/build_peers.sh` leaves (default
/tmp/peers/YaneuraOu, the pinned commit 33ccf1f), checks that the search source is the one the
edits were written for (SHA-256 below), adds a test of `YO_ABL` at fixed lines, rebuilds the
material edition and writes a wrapper script:

    tools/yaneuraou_ablation.py /tmp/yoabl
    /tmp/yoabl/yaneuraou-ablation 1      # YaneuraOu material with bit 1 set

Bits of `YO_ABL` (the wrapper's argument):
    1  no reverse futility pruning (its "Step 8")
    2  no null move (its "Step 9")
    4  shomei's check extension: one ply for a check with SEE >= 0 while ply < 2 x root depth,
       where no singular extension applies
    8  shomei's reach of the late-move reduction before f67be26: captures (and pawn
       promotions), checks and moves out of check are never reduced
   16  no extra reduction at expected cut nodes (its 3.5 plies, the `cutNode` term)
   32  quiescence without its move-count limit (past its first two moves, only checks and
       recaptures are searched)
   64  no ProbCut (its "Step 11")
  128  no internal iterative reduction (its "Step 10")

The edits are made by line number in the pinned file, so no YaneuraOu text is kept here; the
build is for measurement only (YaneuraOu is GPL; nothing of it goes into shomei).
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys

SEARCH = "source/engine/yaneuraou-engine/yaneuraou-search.cpp"
# yaneuraou-search.cpp at YaneuraOu 33ccf1f907eb7184889fa23051243f81ab0bf973.
SEARCH_SHA256 = "ceb99a4f863a7cc6537bdec24f0b9d039ba1b3f57064035ea6a3882a8fe0e936"

SWITCH_FUNCTIONS = (
    "#include <cstdlib>\n"
    "static int yo_abl_bits() { static int v = std::getenv(\"YO_ABL\") ? "
    "std::atoi(std::getenv(\"YO_ABL\")) : 0; return v; }\n"
    "static bool yo_abl(int b) { return (yo_abl_bits() & b) != 0; }\n"
)
CHECK_EXTENSION = (
    "        if (yo_abl(4) && extension == 0 && givesCheck && ss->ply < 2 * rootDepth\n"
    "            && pos.see_ge(move, Value(0)))\n"
    "            extension = 1;\n"
)

# The moves shomei's late-move reduction left alone before f67be26 (bit 8).
TACTICAL = "capture || givesCheck || ss->inCheck"
# Without a reduced search they get the full-depth null window; `r` 0 keeps its one- or two-ply
# cut there from applying to them.
NO_REDUCTION_FOR_TACTICAL = f"            if (yo_abl(8) && ({TACTICAL})) r = 0;\n"


def edit(lines):
    """The pinned file's lines with the switches added (1-based line numbers of that file)."""
    out = list(lines)

    def guard(line_no, bit, skip_when=None):
        # The line opens with `if (`: the switch goes first inside the condition. By default the
        # step is skipped whenever the bit is set; `skip_when` narrows that to some moves.
        text = out[line_no - 1]
        at = text.index("if (") + len("if (")
        test = f"yo_abl({bit})" if skip_when is None else f"(yo_abl({bit}) && ({skip_when}))"
        out[line_no - 1] = text[:at] + f"!{test} && " + text[at:]

    # Bottom up, so that earlier line numbers stay valid.
    guard(4928, 32)  # quiescence: the move-count limit
    out.insert(4027, NO_REDUCTION_FOR_TACTICAL)  # before the full-depth null-window search (line 4028)
    guard(3954, 8, TACTICAL)  # the reduced search
    guard(3903, 16)  # the cut-node reduction
    out.insert(3859, CHECK_EXTENSION)  # after the singular-extension block closes (line 3859)
    guard(3359, 64)  # ProbCut
    guard(3319, 128)  # internal iterative reduction
    guard(3236, 2)  # null move
    guard(3225, 1)  # reverse futility
    out.insert(23, SWITCH_FUNCTIONS)  # after the file's own header include (line 23)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="folder for the copy, the build and the wrapper")
    ap.add_argument("--source", default="/tmp/peers/YaneuraOu", help="YaneuraOu work tree (build_peers.sh's)")
    ap.add_argument("--jobs", default=str(os.cpu_count() or 1))
    args = ap.parse_args()

    tree = os.path.join(args.out, "YaneuraOu")
    if os.path.exists(tree):
        shutil.rmtree(tree)
    # Only the sources and the material edition's objects are needed: build_peers.sh's binaries and
    # its other editions' objects stay behind.
    skip = shutil.ignore_patterns("bin_*", "obj_mate*", "obj_nnue*")
    shutil.copytree(args.source, tree, symlinks=True, ignore=skip)
    path = os.path.join(tree, SEARCH)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != SEARCH_SHA256:
        sys.exit(f"{path}: SHA-256 {digest}, not the pinned file's; the line numbers would be wrong")
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(edit(lines))

    bin_dir = os.path.join(tree, "bin_ablation")
    os.makedirs(bin_dir, exist_ok=True)
    make = [
        "make", f"-j{args.jobs}", "normal", "COMPILER=g++",
        "YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL", "TARGET_CPU=AVX2",
        # The copy keeps build_peers.sh's objects (same flags): only the search is compiled again.
        "OBJDIR=../obj_material", "TARGETDIR=../bin_ablation",
    ]
    with open(os.path.join(args.out, "build.log"), "w") as log:
        subprocess.run(make, cwd=os.path.join(tree, "source"), stdout=log, stderr=subprocess.STDOUT, check=True)
    engine = os.path.join(bin_dir, "YaneuraOu-by-gcc")
    wrapper = os.path.join(args.out, "yaneuraou-ablation")
    with open(wrapper, "w") as f:
        f.write(f'#!/bin/sh\n# YaneuraOu material with YO_ABL=$1 (tools/yaneuraou_ablation.py)\n'
                f'cd "{bin_dir}" || exit 1\nYO_ABL="${{1:-0}}" exec "{engine}"\n')
    os.chmod(wrapper, 0o755)
    print(wrapper)


if __name__ == "__main__":
    main()
