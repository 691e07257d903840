#!/usr/bin/env python3
"""Regenerates scripts/hot-code.ld: the linker script that places the code a
run executes together at the start of the release binary's text.

Why: the kernel maps a program's code in 64 KiB windows around each page it
touches (fault-around), so a run's resident memory counts every window that
holds one executed function. Left in the linker's default order, the few
hundred kilobytes a check executes are spread over almost all of the 4.5 MB
text: a small run had 3.3 MB of resident code. Grouped and linked
statically, a Murphi run maps 1.3 MB of code, C library included (README,
performance).

How: runs the release binary under callgrind on representative checks (both
front ends, one and two threads, every reduction), collects the functions
each run executes, and writes one input-section pattern per function:
functions every run executes first, then those both front ends execute,
then Murphi's, then B's (a run maps few windows beyond its own front end).
Rust functions are matched with their hash replaced by `*` when only one
function has that path, so the script survives rebuilds and dependency
updates; C functions of the static C library, libm and libgcc are placed by
archive member, the start-up objects' code (crt1.o, crtbeginT.o) and the
IFUNC stubs (.iplt) with them. glibc picks its string functions' variant by
the CPU at start, and callgrind's simulated CPU has no AVX-512: the other
variants of every family a run calls follow, grouped by instruction set, so
a server maps the window of its own. A second section gathers the read-only
data of those C library members (what its start-up reads: tunables, CPU
cache tables, search paths) and mimalloc's. A run under valgrind does not
start quite as a native one (no vDSO to register), so the few functions
only a native start runs are listed by hand (NATIVE_START). A stale script
only costs memory, never correctness: a pattern that matches nothing is
ignored and unmatched code keeps the default order.

Usage: scripts/hot-code.py [--check]   (needs valgrind and python3)
  --check  only report how many of the current patterns match the binary
           and how many 64 KiB code windows a small run maps.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "hot-code.ld")
MODELS = os.path.join(ROOT, "models")

# (front end, arguments after `orbit`): what users run, small enough for callgrind.
RUNS = [
    ("murphi", ["check", f"{MODELS}/murphi/peterson.m", "--set", "N=4", "--threads", "1"]),
    ("murphi", ["check", f"{MODELS}/murphi/peterson.m", "--set", "N=4", "--threads", "2", "--symmetry", "canon"]),
    ("murphi", ["check", f"{MODELS}/murphi/peterson.m", "--set", "N=4", "--threads", "1", "--symmetry", "canon"]),
    ("murphi", ["check", f"{MODELS}/murphi/german.m", "--set", "NODES=2", "--threads", "2"]),
    ("murphi", ["check", f"{MODELS}/murphi/msg_net.m", "--threads", "2", "--symmetry", "flood"]),
    ("murphi", ["check", f"{MODELS}/murphi/mutex_bug.m", "--threads", "1"]),
    ("murphi", ["check", f"{MODELS}/murphi/features.m", "--threads", "1"]),
    ("b", ["check", f"{MODELS}/scheduler0.mch", "--set", "PROC=3", "--threads", "1"]),
    ("b", ["check", f"{MODELS}/scheduler0.mch", "--set", "PROC=3", "--threads", "2", "--symmetry", "canon", "--json"]),
    ("b", ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=3", "--threads", "2", "--por"]),
    ("b", ["check", f"{MODELS}/Dining.mch", "--threads", "2", "--symmetry", "markers"]),
    ("b", ["check", f"{MODELS}/TokenRing.mch", "--threads", "1", "--order", "dfs"]),
    ("b", ["check", f"{MODELS}/CountersInv.mch", "--threads", "2"]),
]

# C functions a native start runs and a start under valgrind does not:
# glibc's static start-up builds a link map for the vDSO, which valgrind
# does not provide.
NATIVE_START = ["_dl_new_object", "_dl_setup_hash", "_dl_add_to_namespace_list", "_dl_lookup_symbol_x"]

HASH = re.compile(r"17h[0-9a-f]{16}E$")
WINDOW = 1 << 16


def binary():
    out = subprocess.run(
        ["cargo", "build", "--release", "--locked", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("executable") and message.get("target", {}).get("name") == "orbit":
            return message["executable"]
    sys.exit("no orbit executable in cargo's output")


def symbols(exe):
    """name -> (address, size) of the binary's functions."""
    out = subprocess.run(["nm", "-S", exe], check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwWiI":
            syms[p[3]] = (int(p[0], 16), int(p[1], 16))
    return syms


def executed(exe, args, tmp):
    """The functions one run executes (callgrind's function names, mangled)."""
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", exe, *args],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names, seen = {}, []
    for line in open(out):
        m = re.match(r"^c?fn=\((\d+)\)(?: (.*))?", line)
        if m:
            name = m.group(2) or names.get(m.group(1))
            if m.group(2):
                names[m.group(1)] = m.group(2)
            seen.append(re.sub(r"'\d+$", "", name))
    return list(dict.fromkeys(seen))


def archive_members():
    """C function name -> archive member (`member.o`) in the static C
    library, libm and libgcc, and every member of those archives."""
    libdir = os.path.dirname(subprocess.run(["cc", "-print-file-name=libc.a"], capture_output=True, text=True).stdout.strip())
    gccdir = os.path.dirname(subprocess.run(["cc", "-print-libgcc-file-name"], capture_output=True, text=True).stdout.strip())
    # libm.a is a linker script naming libm-VERSION.a.
    paths = [os.path.join(libdir, "libc.a"), os.path.join(libdir, "libpthread.a")]
    paths += sorted(glob.glob(os.path.join(libdir, "libm-*.a")))
    paths += [os.path.join(gccdir, "libgcc.a"), os.path.join(gccdir, "libgcc_eh.a")]
    members, every, data, refs = {}, [], {}, collections.defaultdict(set)
    for path in paths:
        if not os.path.exists(path):
            continue
        every += subprocess.run(["ar", "t", path], capture_output=True, text=True).stdout.split()
        out = subprocess.run(["nm", "-A", path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^[^:]*:([^:]+):\s*[0-9a-f]*\s+([A-Za-z])\s+(\S+)$", line)
            if not m:
                continue
            member, kind, name = m.groups()
            if kind in "TtWiI":
                members.setdefault(name, member)
            elif kind == "R":
                data.setdefault(name, member)
            elif kind == "U":
                refs[member].add(name)
    # member -> the members whose read-only data it reads (strtoul_l.o reads
    # strtol_l.o's __strtol_ul_max_tab).
    reads = {m: {data[n] for n in names if n in data} for m, names in refs.items()}
    return members, every, reads


def startup_objects():
    """C function name -> file name of the start-up object (crt1.o, crtbeginT.o, ...)
    that defines it; their code is in a plain `.text` section."""
    found = {}
    for obj in ["crt1.o", "crti.o", "crtbeginT.o", "crtend.o", "crtn.o"]:
        path = subprocess.run(["cc", f"-print-file-name={obj}"], capture_output=True, text=True).stdout.strip()
        if not os.path.isabs(path):
            continue
        out = subprocess.run(["nm", "--defined-only", path], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "tT":
                found.setdefault(p[2], obj)
    return found


def variants(executed_members, every):
    """The other implementations of the C library's functions a run calls
    through IFUNCs (`memmove-evex-unaligned-erms.o` beside
    `memmove-avx-unaligned-erms.o`): glibc picks one by the CPU at start, and
    callgrind's simulated CPU has no AVX-512, so the variant a server uses is
    not among the executed ones. Grouped by instruction set, widest first, so
    that a machine maps the windows of its own variants only."""
    families = {re.sub(r"-.*", "", m[: -len(".o")]) for m in executed_members}
    rest = [m for m in every if "-" in m and m.split("-")[0] in families and m not in executed_members]

    def isa(m):
        return 0 if re.search(r"avx512|evex", m) else 1 if re.search(r"avx", m) else 2

    return sorted(dict.fromkeys(rest), key=isa)


def windows(exe, names):
    syms = symbols(exe)
    wins = set()
    for n in names:
        if n in syms:
            a, s = syms[n]
            wins.update(range(a // WINDOW, (a + max(s, 1) - 1) // WINDOW + 1))
    return len(wins)


def generate(exe):
    syms = symbols(exe)
    paths = collections.Counter(HASH.sub("17h*E", n) for n in syms)
    members, every, reads = archive_members()
    crt = startup_objects()
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for front, args in RUNS:
            runs.append((front, executed(exe, args, tmp)))
            print(f"{len(runs[-1][1]):5} functions: orbit {' '.join(args).replace(ROOT + '/', '')}", file=sys.stderr)
    first = {}
    runs = [(front, names + NATIVE_START) for front, names in runs]
    for _, names in runs:
        for n in names:
            first.setdefault(n, len(first))
    sets = [(front, set(names)) for front, names in runs]

    def rank(n):
        fronts = {front for front, s in sets if n in s}
        count = sum(1 for _, s in sets if n in s)
        group = 0 if count == len(sets) else 1 if len(fronts) == 2 else 2 if fronts == {"murphi"} else 3
        return (group, -count, first[n])

    # First the stubs through which calls to IFUNC-resolved C functions
    # (memcpy, strlen, ...) jump.
    # and the start-up objects' code (crtbeginT.o's frame_dummy runs
    # before callgrind names a function).
    patterns = ["*(.iplt)", "*crtbeginT.o(.text)"]
    for n in sorted(first, key=rank):
        if n.startswith(("_ZN", "_R")):
            if not re.fullmatch(r"[A-Za-z0-9_.$]+", n):
                continue
            key = HASH.sub("17h*E", n)
            name = key if paths[key] <= 1 else n
            patterns.append(f"*(.text.{name} .text.unlikely.{name})")
        elif n in crt:
            patterns.append(f"*{crt[n]}(.text)")
        elif n in members:
            patterns.append(f"*lib*.a:{members[n]}(.text .text.*)")
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", n) and n in syms:
            # C code compiled with function sections (mimalloc; GCC puts
            # constructors in .text.startup and destructors in .text.exit).
            patterns.append(f"*(.text.{n} .text.startup.{n} .text.exit.{n})")
    c_members = list(dict.fromkeys(members[n] for n in sorted(first, key=rank)
                                   if n in members and not n.startswith(("_ZN", "_R"))))
    used = set(c_members)
    patterns += [f"*lib*.a:{m}(.text .text.*)" for m in variants(used, every)]
    patterns = list(dict.fromkeys(patterns))
    with open(SCRIPT, "w") as f:
        f.write("/* Generated by scripts/hot-code.py: the code representative runs execute,\n"
                "   placed first so that a run maps few 64 KiB code windows. Read by build.rs\n"
                "   for the release binary. Regenerate after large changes. */\n")
        f.write("SECTIONS {\n  .text.executed : {\n")
        for p in patterns:
            f.write(f"    {p}\n")
        f.write("  }\n} INSERT BEFORE .text;\n")
        # The C library's read-only data (tunables, CPU cache tables, search
        # paths, ...) that its start-up reads, next to the ELF headers a run
        # reads anyway; Rust's constants have no stable section names.
        f.write("SECTIONS {\n  .rodata.executed : {\n")
        for m in dict.fromkeys(r for m in c_members for r in [m, *sorted(reads.get(m, ()))]):
            f.write(f"    *lib*.a:{m}(.rodata .rodata.*)\n")
        # mimalloc's (its option names, read at start).
        f.write("    *mimalloc*:*(.rodata .rodata.*)\n")
        f.write("  }\n} INSERT BEFORE .rodata;\n")
    print(f"{len(patterns)} patterns written to {os.path.relpath(SCRIPT, ROOT)}; rebuild to apply", file=sys.stderr)


def check(exe):
    text = open(SCRIPT).read()
    pats = re.findall(r"\*\(\.text\.(\S+) ", text)
    syms = symbols(exe)
    keys = set(syms) | {HASH.sub("17h*E", n) for n in syms}
    matched = sum(1 for p in pats if p in keys)
    print(f"{matched} of {len(pats)} Rust patterns match a function of {exe}")
    with tempfile.TemporaryDirectory() as tmp:
        firsts = [next(run for run in RUNS if run[0] == front) for front in ("murphi", "b")]
        for front, args in firsts:
            names = executed(exe, args, tmp)
            print(f"{windows(exe, names):4} code windows of 64 KiB: orbit {' '.join(args).replace(ROOT + '/', '')}")


if __name__ == "__main__":
    exe = binary()
    if sys.argv[1:] == ["--check"]:
        check(exe)
    elif sys.argv[1:]:
        sys.exit(__doc__)
    else:
        generate(exe)
