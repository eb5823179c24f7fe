#!/usr/bin/env python3
"""Lists the GPU code an executable carries: native code (SASS) and PTX by architecture, read from
its CUDA fat binaries. With none, says so (a host build). Usage: gpu_code.py EXECUTABLE..."""
import struct
import sys

FATBIN_MAGIC = struct.pack("<I", 0xBA55ED50)


def gpu_code(path):
    """(native architectures, PTX architectures) found in the file's fat binaries."""
    data = open(path, "rb").read()
    native, ptx = set(), set()
    at = data.find(FATBIN_MAGIC)
    while at >= 0:
        header_size, body_size = struct.unpack_from("<HQ", data, at + 6)
        entry, end = at + header_size, at + header_size + body_size
        while entry + 32 <= min(end, len(data)):
            kind, _, entry_header, size = struct.unpack_from("<HHIQ", data, entry)
            arch = struct.unpack_from("<I", data, entry + 28)[0]
            (ptx if kind == 1 else native).add(arch)
            entry += entry_header + size
        at = data.find(FATBIN_MAGIC, max(end, at + 4))
    return sorted(native), sorted(ptx)


for name in sys.argv[1:]:
    native, ptx = gpu_code(name)
    if not native and not ptx:
        print(f"{name}: no GPU code")
    else:
        print(f"{name}: native " + (" ".join(f"sm_{a}" for a in native) or "none") +
              "; PTX " + (" ".join(f"compute_{a}" for a in ptx) or "none"))
