#!/usr/bin/env python3
"""Checks what the GPU bundle's run.sh left in its output folder: at most 8 files under 16 MiB each;
every part passed, or (--all-skipped) every part skipped by name; the benchmark's JSON holds every
model, arm and size with a positive rate, and eagle-simulate's JSON parses.

    check_bundle_run.py [--all-skipped] OUT_DIR
"""
import json
import pathlib
import sys

PARTS = ("tests", "demo", "simulate", "benchmark")
MODELS = ("lorenz", "lorenz_fp32", "oscillator_spread")
ARMS = ("k1", "k1_no_compaction", "k16", "k16_no_compaction", "auto", "auto_no_compaction",
        "A_naive_kokkos", "C_run_to_completion")
OUTPUTS = ("summary.txt", "run.log", "eagle-demo.svg", "eagle-simulate.json", "eagle-simulate.svg",
           "eagle-bench-gpu.json", "eagle-bench-gpu.svg")


def fail(why):
    print(f"check_bundle_run: {why}", file=sys.stderr)
    sys.exit(1)


def check_benchmark(path):
    runs = json.loads(path.read_text())["benchmarks"]
    rates = {r["name"]: r.get("sample_steps_per_s", 0.0) for r in runs}
    if not any(name.startswith("launch/empty_parallel_for") for name in rates):
        fail(f"{path}: no launch cost")
    for model in MODELS:
        for arm in ARMS:
            mine = [rate for name, rate in rates.items() if name.startswith(f"{model}/{arm}/")]
            if not mine or min(mine) <= 0.0:
                fail(f"{path}: {model}/{arm} missing or without a rate")


def main():
    args = sys.argv[1:]
    all_skipped = args[:1] == ["--all-skipped"]
    if all_skipped:
        args = args[1:]
    if len(args) != 1:
        fail("usage: check_bundle_run.py [--all-skipped] OUT_DIR")
    out = pathlib.Path(args[0])
    files = [f for f in out.iterdir() if f.is_file()]
    if len(files) > 8:
        fail(f"{out} holds {len(files)} files, more than 8")
    for f in files:
        if f.stat().st_size >= 16 * 1024 * 1024:
            fail(f"{f} is {f.stat().st_size} bytes, not under 16 MiB")
    summary = (out / "summary.txt").read_text()
    for part in PARTS:
        wanted = f"{part}: skipped: " if all_skipped else f"{part}: passed in "
        if wanted not in summary:
            fail(f"{out}/summary.txt lacks '{wanted}'")
    if all_skipped:
        return
    for name in OUTPUTS:
        if not (out / name).is_file():
            fail(f"{out}/{name} is missing")
    check_benchmark(out / "eagle-bench-gpu.json")
    json.loads((out / "eagle-simulate.json").read_text())
    print(f"check_bundle_run: {out}: {len(files)} files, every part passed, every model and arm measured")


main()
