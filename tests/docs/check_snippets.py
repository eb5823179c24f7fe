#!/usr/bin/env python3
"""Checks that every C++ block in the README and the guide is code that CI compiles.

Each ```cpp block must follow a line `<!-- snippet: PATH NAME [NAME ...] -->` naming a source file
(relative to the repository) and regions in it, marked there by `// [snippet NAME]` ...
`// [snippet end]`. The block must equal those regions, each dedented, a blank line between two.

    check_snippets.py REPOSITORY            checks, exit 1 on any difference
    check_snippets.py REPOSITORY --update   rewrites each marked block from its regions
"""
import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- snippet: (\S+) ((?:\S+ ?)+) -->$")
REGION_START = re.compile(r"^\s*// \[snippet (\S+)\]\s*$")
REGION_END = re.compile(r"^\s*// \[snippet end\]\s*$")


def regions(path):
    """NAME -> lines of each region in the source file, dedented."""
    found, name, lines = {}, None, []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        start = REGION_START.match(line)
        if start and start.group(1) != "end":
            if name is not None:
                raise ValueError(f"{path}:{number}: region '{start.group(1)}' opens inside '{name}'")
            if start.group(1) in found:
                raise ValueError(f"{path}:{number}: region '{start.group(1)}' is marked twice")
            name, lines = start.group(1), []
        elif REGION_END.match(line):
            if name is None:
                raise ValueError(f"{path}:{number}: '[snippet end]' closes no region")
            indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
            found[name] = [l[indent:] for l in lines]
            name = None
        elif name is not None:
            lines.append(line)
    if name is not None:
        raise ValueError(f"{path}: region '{name}' is never closed")
    return found


def blocks(page):
    """(line number, marker line before it, block lines) for each ```cpp block of a page."""
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines))
            yield i + 1, previous.strip(), lines[i + 1:end]
            i = end
        i += 1


def expected_lines(source, names):
    """The named regions of a source file, a blank line between two."""
    found = regions(source)
    missing = [n for n in names if n not in found]
    if missing:
        raise ValueError(f"{source} has no region {', '.join(missing)}")
    return [line for k, n in enumerate(names) for line in ([""] if k else []) + found[n]]


def update(page, root):
    """Rewrites every marked cpp block of a page from its regions."""
    lines, out, i = page.read_text().splitlines(), [], 0
    while i < len(lines):
        match = MARKER.match(lines[i].strip())
        if match and i + 1 < len(lines) and lines[i + 1].strip() == "```cpp":
            end = next(j for j in range(i + 2, len(lines)) if lines[j].strip() == "```")
            out += lines[i:i + 2] + expected_lines(root / match.group(1), match.group(2).split())
            i = end
            continue
        out.append(lines[i])
        i += 1
    page.write_text("\n".join(out) + "\n")


def main(root, updating):
    root = pathlib.Path(root)
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    if updating:
        for page in pages:
            update(page, root)
    problems, checked = [], 0
    for page in pages:
        where = page.relative_to(root)
        for number, marker, block in blocks(page):
            match = MARKER.match(marker)
            if not match:
                problems.append(f"{where}:{number}: a cpp block without a '<!-- snippet: PATH NAME -->' line before it")
                continue
            source, names = root / match.group(1), match.group(2).split()
            if not source.is_file():
                problems.append(f"{where}:{number}: {match.group(1)} does not exist")
                continue
            try:
                expected = expected_lines(source, names)
            except ValueError as error:
                problems.append(f"{where}:{number}: {error}")
                continue
            if block != expected:
                at = next((k for k, (a, b) in enumerate(zip(block, expected)) if a != b), min(len(block), len(expected)))
                shown = block[at] if at < len(block) else "(the block ends)"
                wanted = expected[at] if at < len(expected) else "(the regions end)"
                problems.append(f"{where}:{number + 1 + at}: differs from {match.group(1)} [{' '.join(names)}]:\n"
                                f"    page:   {shown}\n    source: {wanted}")
                continue
            checked += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check_snippets: {checked} blocks match their sources, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--update"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], len(sys.argv) == 3))
