#!/usr/bin/env python3
"""Writes a valid checkpoint payload (format version 4, without header and CRC: the fuzz target
wraps it) as the first input of checkpoint_fuzz's corpus, so that mutations start from a file
that reaches the decoder's cross-field checks.   checkpoint_seed.py CORPUS_FOLDER"""
import os
import struct
import sys


def string(s):
    return struct.pack("<Q", len(s)) + s.encode()


def vector(fmt, values):
    return struct.pack("<Q", len(values)) + struct.pack("<%d%s" % (len(values), fmt), *values)


samples = 3
payload = b"".join([
    string("spin"), string("Spin (8 bytes)"), struct.pack("<Iii", 8, 2, 1), struct.pack("<qq", samples, 100),
    string("k=4"), string("tile"), string("rank 1 of 2, samples [3, 6) of 6"),
    struct.pack("<II", 0xDEADBEEF, 0x12345678),
    struct.pack("<Q", 2), struct.pack("<6q", 4, 3, 2, 4, 2, 1),          # history
    struct.pack("<d", 0.25), struct.pack("<q", 1),                       # seconds, active
    struct.pack("<Q", 1), string("map"), struct.pack("<q", 1),           # compaction actions
    struct.pack("<9q", 2, 0, 0, 6, 3, 1, 0, 0, 0),  # rows moved, revived, extra bytes, scanned, span, slots, pending, in flight
    vector("B", [7] * 24), vector("B", [9] * 24),                        # two state planes
    vector("B", [1, 1, 0]), vector("B", [1, 1, 0]), vector("q", [3, 5, 8]),  # terminated, status, steps
    vector("i", [2, 0, 1]), vector("i", [2]),                            # origin, map
    vector("B", [5] * 16),                                               # model memory
])
os.makedirs(sys.argv[1], exist_ok=True)
with open(os.path.join(sys.argv[1], "valid-payload"), "wb") as f:
    f.write(payload)
