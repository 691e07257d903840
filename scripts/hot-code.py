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
then Murphi's, then B's (a run maps few windows beyond its own front end);
within a group, those more runs execute first, then the hottest (their own
instructions in the one-thread runs), then by name, so that regenerating
does not move the hot loops by chance (README, code placement).
Rust functions are matched with their hash replaced by `*` when only one
function has that path, so the script survives rebuilds and dependency
updates; C functions of the static C library, libm and libgcc are placed by
archive member, the start-up objects' code (crt1.o, crtbeginT.o) and the
IFUNC stubs (.iplt) with them. glibc picks its string functions' variant by
the CPU at start, and callgrind's simulated CPU has no AVX-512: the AVX-512
variants of every family a run calls come right after the start-up code
(an AVX-512 CPU runs some on every start), the others after the executed
code, grouped by instruction set, so a machine maps the window of its own.

The read-only data is placed the same way, right after the ELF headers: the
input sections (named in the link map build.rs writes) that valgrind's
lackey sees two runs of each front end read, and those a native run faults
on (perf; what the kernel reads for a system call, and CPU- or
timing-dependent paths such as float formatting), then all merged strings
and constants, and the data of the executed C library members (tunables,
CPU cache tables, search paths) and mimalloc's. Rust's anonymous constants
are numbered per code-generation unit and renumbered when its code changes:
every constant of each unit read follows, at the start of the rest of the
read-only data, so that stale numbers still find them together. A small
run read its data in 9 windows, now 4. A run under valgrind does not
start quite as a native one (no vDSO to register), so the few functions
only a native start runs are listed by hand (NATIVE_START). A stale script
only costs memory, never correctness: a pattern that matches nothing is
ignored and unmatched code keeps the default order.

Usage: scripts/hot-code.py [--check]   (needs valgrind and python3; perf
                                        if present)
  --check  only report how many of the current patterns match the binary
           and how many 64 KiB windows of code and of read-only data a
           small run maps.
"""
import bisect
import collections
import glob
import json
import os
import re
import shlex
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

# Read-only data a native run may read and a traced one did not: float
# formatting's tables, which `{:.2}` reads or not depending on the value
# printed (a wall time).
NATIVE_DATA = ["*(.rodata.*flt2dec*)"]

HASH = re.compile(r"17h[0-9a-f]{16}E$")
WINDOW = 1 << 16


def binary():
    """The release binary and its link map (written by build.rs)."""
    out = subprocess.run(
        ["cargo", "build", "--release", "--locked", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    exe, link_map = None, None
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("executable") and message.get("target", {}).get("name") == "orbit":
            exe = message["executable"]
        if message.get("reason") == "build-script-executed" and message.get("package_id", "").startswith("path+file://" + ROOT + "#"):
            link_map = os.path.join(message["out_dir"], "orbit.map")
    if not exe:
        sys.exit("no orbit executable in cargo's output")
    return exe, link_map


def symbols(exe):
    """name -> (address, size) of the binary's functions."""
    out = subprocess.run(["nm", "-S", exe], check=True, capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwWiI":
            syms[p[3]] = (int(p[0], 16), int(p[1], 16))
    return syms


def executed(exe, args, tmp, cost=None):
    """The functions one run executes (callgrind's function names, mangled),
    in the order callgrind names them; adds each function's own instruction
    count to `cost` if given."""
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", exe, *args],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names, seen = {}, []
    current, after_call = None, False
    for line in open(out):
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            name = m.group(3) or names.get(m.group(2))
            if m.group(3):
                names[m.group(2)] = m.group(3)
            name = re.sub(r"'\d+$", "", name)
            seen.append(name)
            if m.group(1) == "fn":
                current = name
            continue
        if line.startswith("calls="):
            after_call = True
        elif re.match(r"^[+-]?\d|^\*", line):
            # A cost line: the inclusive cost of a call just named, or the
            # current function's own.
            if not after_call and cost is not None and current:
                cost[current] += int(line.split()[1])
            after_call = False
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
        return 0 if widest(m) else 1 if re.search(r"avx", m) else 2

    return sorted(dict.fromkeys(rest), key=isa)


def widest(member):
    """Whether a C library member is an AVX-512 variant."""
    return re.search(r"avx512|evex", member) is not None


def rodata_segment(exe):
    """(start, end) of the read-only, non-executable segment that holds the
    ELF headers and the read-only data."""
    out = subprocess.run(["readelf", "-lW", exe], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if p[:1] == ["LOAD"] and p[6:7] == ["R"]:
            start, size = int(p[2], 16), int(p[5], 16)
            return start, start + size
    sys.exit(f"no read-only segment in {exe}")


def rodata_read(exe, args, segment):
    """The addresses of the read-only segment that one run reads (valgrind's
    lackey traces every load; the kernel's fault-around hides all but the
    first page of each window from a page-fault count)."""
    lo, hi = segment
    prefixes = "|".join(f"{page:05x}" for page in range(lo >> 12, (hi + 0xfff) >> 12))
    command = (f"valgrind --tool=lackey --trace-mem=yes --log-fd=9 {shlex.join([exe, *args])} 9>&1 >/dev/null 2>&1"
               f" | grep -E '^ [LM] ({prefixes})[0-9a-f]{{3}},' | cut -c4-11 | sort -u")
    out = subprocess.run(["bash", "-c", command], check=True, capture_output=True, text=True).stdout
    return {int(a, 16) for a in out.split()}


def rodata_faulted(exe, args, segment, tmp):
    """The addresses of the read-only segment at which a native run of `exe`
    takes a page fault (`perf record -e page-faults -d`), or nothing without
    perf. These include what a traced run does not read: data the kernel
    reads for a system call (a path) and data of code paths that depend on
    the CPU or on timing (float formatting of a wall time). Only the first
    read of each 64 KiB window faults, so reads the linker script already
    places in the executed data's windows are not seen."""
    out = os.path.join(tmp, "perf.data")
    try:
        subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", out, exe, *args],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        script = subprocess.run(["perf", "script", "-i", out, "-F", "addr"], check=True,
                                capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    lo, hi = segment
    return {a for a in (int(line, 16) for line in script.split()) if lo <= a < hi}


def placed_constants():
    """The patterns of single anonymous constants the current script places
    with the read-only data a run reads."""
    if not os.path.exists(SCRIPT):
        return []
    return re.findall(r"^\s*(\*\(\.rodata\.\.Lanon\.[0-9a-f]+\.\d+\))$", open(SCRIPT).read(), re.M)


def input_sections(link_map, segment):
    """(address, size, file, section) of each input section the link map
    places in the read-only segment, by address."""
    lo, hi = segment
    found = []
    for line in open(link_map):
        m = re.match(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s{9}(\S.*):\((.*)\)$", line)
        if m and lo <= int(m.group(1), 16) < hi:
            found.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3), m.group(4)))
    return sorted(found)


def rodata_patterns(reads, sections, paths):
    """Linker-script patterns for the input sections that hold `reads`:
    (hot, large, units). `hot`, most read first: each anonymous constant
    read (`.rodata..Lanon.HASH.N`, by its number, which changes whenever
    its code-generation unit does), a Rust function's own constants
    (`.rodata.NAME`, its jump tables) by name as the code patterns are, the
    C library's by archive member. `large`: C library members of more than
    16 KB (a locale's tables, of which a run reads a few hundred bytes at
    their start). `units`: all the anonymous constants of each unit read,
    by HASH, which survive a change of the numbers. Merged strings and
    constants (`<internal>`) cannot be told apart here."""
    starts = [s[0] for s in sections]
    count, size = collections.Counter(), {}
    units = collections.Counter()
    for a in reads:
        i = bisect.bisect_right(starts, a) - 1
        if i < 0 or a >= sections[i][0] + sections[i][1]:
            continue
        _, length, file, section = sections[i]
        m = re.fullmatch(r"\.rodata(\.unlikely|\.\.Lswitch\.table)?\.((_ZN|_R)[A-Za-z0-9_.$]+)", section)
        anon = re.fullmatch(r"\.rodata\.\.Lanon\.([0-9a-f]+)\.\d+", section)
        member = re.search(r"/(lib[^/]*\.a)\(([^)]+)\)$", file)
        if m:
            key = HASH.sub("17h*E", m.group(2))
            name = key if paths[key] <= 1 else m.group(2)
            pattern = f"*(.rodata{m.group(1) or ''}.{name})"
        elif anon:
            pattern = f"*({section})"
            units[f"*(.rodata..Lanon.{anon.group(1)}.*)"] += 1
        elif member and section.startswith(".rodata"):
            pattern = f"*lib*.a:{member.group(2)}(.rodata .rodata.*)"
        elif re.fullmatch(r"\.rodata\.[A-Za-z_][A-Za-z0-9_]*", section):
            # C compiled with data sections (mimalloc's).
            pattern = f"*({section})"
        else:
            continue
        count[pattern] += 1
        size[pattern] = size.get(pattern, 0) + length
    hot = [p for p, _ in count.most_common() if size[p] <= 16 << 10]
    large = [p for p, _ in count.most_common() if size[p] > 16 << 10]
    return hot, large, [p for p, _ in units.most_common()]


def windows(exe, names):
    syms = symbols(exe)
    wins = set()
    for n in names:
        if n in syms:
            a, s = syms[n]
            wins.update(range(a // WINDOW, (a + max(s, 1) - 1) // WINDOW + 1))
    return len(wins)


def generate(exe, link_map):
    syms = symbols(exe)
    paths = collections.Counter(HASH.sub("17h*E", n) for n in syms)
    members, every, reads_of = archive_members()
    crt = startup_objects()
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        # Own instructions of each function in the one-thread runs (whose
        # counts do not depend on timing).
        cost = collections.Counter()
        for front, args in RUNS:
            one_thread = args[args.index("--threads") + 1] == "1"
            runs.append((front, executed(exe, args, tmp, cost if one_thread else None)))
            print(f"{len(runs[-1][1]):5} functions: orbit {' '.join(args).replace(ROOT + '/', '')}", file=sys.stderr)
        # The read-only data: traced on the first two runs of each front
        # end (lackey is slower than callgrind; the data a run reads is
        # mostly its front end's and the command line's).
        segment = rodata_segment(exe)
        sections = input_sections(link_map, segment)
        reads = set()
        traced = [run for front in ("murphi", "b") for run in [r for r in RUNS if r[0] == front][:2]]
        for _, args in traced:
            reads |= rodata_read(exe, args, segment) | rodata_faulted(exe, args, segment, tmp)
            print(f"{len(reads):5} addresses of read-only data read so far: orbit {' '.join(args).replace(ROOT + '/', '')}",
                  file=sys.stderr)
        hot_data, large_data, data_units = rodata_patterns(reads, sections, paths)
        # A native run's reads that the current script already places do
        # not fault: keep the anonymous constants it places by number while
        # the link map still has them.
        placeable = {f"*({section})" for _, _, _, section in sections}
        hot_data += [p for p in placed_constants() if p in placeable and p not in hot_data]
    sets = [(front, set(names + NATIVE_START)) for front, names in runs]

    def rank(n):
        fronts = {front for front, s in sets if n in s}
        count = sum(1 for _, s in sets if n in s)
        group = 0 if count == len(sets) else 1 if len(fronts) == 2 else 2 if fronts == {"murphi"} else 3
        # Within a group, the functions more runs execute first, and of
        # those the hottest first (by powers of two of their instructions,
        # then by name): the interpreters' and the engine's hot loops
        # together, in an order that does not change from one regeneration
        # to the next. The order in which callgrind meets functions does
        # (with two threads), and with it the hot loops' offsets in their
        # pages: German with 4 nodes took 1.69 s or 1.81 s at one thread in
        # builds that differed in that order alone.
        return (group, -count, -cost[n].bit_length(), n)

    # First the stubs through which calls to IFUNC-resolved C functions
    # (memcpy, strlen, ...) jump.
    # and the start-up objects' code (crtbeginT.o's frame_dummy runs
    # before callgrind names a function).
    # Then the AVX-512 variants of the C library's string functions (see
    # `variants`): callgrind never runs them, and a CPU that has AVX-512
    # (most x86-64 servers of recent years) runs some on every start, which
    # at the end of the executed code cost every run one window more (30 KB
    # here, where a CPU without AVX-512 maps at most one window more for
    # them).
    patterns = ["*(.iplt)", "*crtbeginT.o(.text)"]
    order = sorted(set().union(*(names for _, names in sets)), key=rank)
    c_members = list(dict.fromkeys(members[n] for n in order
                                   if n in members and not n.startswith(("_ZN", "_R"))))
    other_variants = variants(set(c_members), every)
    patterns += [f"*lib*.a:{m}(.text .text.*)" for m in other_variants if widest(m)]
    for n in order:
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
    patterns += [f"*lib*.a:{m}(.text .text.*)" for m in other_variants if not widest(m)]
    patterns = list(dict.fromkeys(patterns))
    with open(SCRIPT, "w") as f:
        f.write("/* Generated by scripts/hot-code.py: the code representative runs execute,\n"
                "   placed first so that a run maps few 64 KiB code windows. Read by build.rs\n"
                "   for the release binary. Regenerate after large changes. */\n")
        f.write("SECTIONS {\n  .text.executed : {\n")
        for p in patterns:
            f.write(f"    {p}\n")
        f.write("  }\n} INSERT BEFORE .text;\n")
        # The read-only data, next to the ELF headers a run reads anyway:
        # what the traced runs read (the C library's tunables, CPU cache
        # tables and locale; mimalloc's; Rust's functions' jump tables and
        # constants), every merged string and constant, the data of float
        # formatting (NATIVE_DATA), the rest of the executed C library
        # members' data and mimalloc's, and the C library's large tables.
        f.write("SECTIONS {\n  .rodata.executed : {\n")
        c_data = [f"*lib*.a:{r}(.rodata .rodata.*)" for m in c_members for r in [m, *sorted(reads_of.get(m, ()))]]
        merged = ["*(.rodata.str* .rodata.cst*)"]
        rest = ["*mimalloc*:*(.rodata .rodata.*)"]
        for p in dict.fromkeys(hot_data + merged + NATIVE_DATA + c_data + rest + large_data):
            f.write(f"    {p}\n")
        f.write("  }\n} INSERT BEFORE .gcc_except_table;\n")
        # Then, at the start of the other read-only data, every anonymous
        # constant of each unit read: the constants that a change of the
        # code renumbers are found together there until the script is run
        # again.
        f.write("SECTIONS {\n  .rodata.units : {\n")
        for p in data_units:
            f.write(f"    {p}\n")
        f.write("  }\n} INSERT BEFORE .rodata;\n")
    print(f"{len(patterns)} patterns written to {os.path.relpath(SCRIPT, ROOT)}; rebuild to apply", file=sys.stderr)


def check(exe):
    text = open(SCRIPT).read()
    pats = re.findall(r"\*\(\.text\.(\S+) ", text)
    syms = symbols(exe)
    keys = set(syms) | {HASH.sub("17h*E", n) for n in syms}
    matched = sum(1 for p in pats if p in keys)
    print(f"{matched} of {len(pats)} Rust patterns match a function of {exe}")
    segment = rodata_segment(exe)
    with tempfile.TemporaryDirectory() as tmp:
        firsts = [next(run for run in RUNS if run[0] == front) for front in ("murphi", "b")]
        for front, args in firsts:
            names = executed(exe, args, tmp)
            data = rodata_read(exe, args, segment) | rodata_faulted(exe, args, segment, tmp)
            print(f"{windows(exe, names):4} code windows and {len({a // WINDOW for a in data}):2} read-only data windows "
                  f"of 64 KiB: orbit {' '.join(args).replace(ROOT + '/', '')}")


if __name__ == "__main__":
    exe, link_map = binary()
    if sys.argv[1:] == ["--check"]:
        check(exe)
    elif sys.argv[1:]:
        sys.exit(__doc__)
    elif not link_map or not os.path.exists(link_map):
        sys.exit("no link map of the release binary (build.rs writes it on x86-64 Linux)")
    else:
        generate(exe, link_map)
