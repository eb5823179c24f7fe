"""Checks two eagle-simulate JSON files (say one rank and two) hold the same per-sample results:
every arm of every batch has one checksum, the same in both, and the rank counts differ."""
import json
import sys

runs = [json.load(open(path)) for path in sys.argv[1:3]]
checksums = []
for run in runs:
    seen = {}
    for batch in run["batches"]:
        for arm in batch["arms"]:
            if arm["measured"]:
                seen[(batch["name"], arm["arm"])] = arm["checksum"]
    checksums.append(seen)
assert checksums[0] and checksums[0] == checksums[1], f"checksums differ: {checksums}"
assert len({c for c in checksums[0].values()}) == len({b["name"] for b in runs[0]["batches"]}), "arms disagree"
ranks = [run["machine"]["ranks"] for run in runs]
assert ranks[0] != ranks[1], f"both runs had {ranks[0]} ranks"
print(f"same results with {ranks[0]} and {ranks[1]} ranks: {len(checksums[0])} arm-batch checksums")
