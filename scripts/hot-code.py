#!/usr/bin/env python3
"""Regenerates scripts/hot-code.ld: the linker script that places the code a
run executes together at the start of the release binary's text.

Why: the kernel maps a program's code in 64 KiB windows around each page it
touches (fault-around), so a run's resident memory counts every window that
holds one executed function. Left in the linker's default order, the few
hundred kilobytes a check executes are spread over almost all of the 4.5 MB
text: a small run had 3.3 MB of resident code. Grouped and linked
statically, a small Murphi run maps 1.0-1.2 MB of code, C library included (README,
performance).

How: runs the release binary under callgrind on representative checks (both
front ends, one and two threads, every reduction), collects the functions
each run executes, and writes one input-section pattern per function. A
run counts as one run per phase: the binary releases the pages it made
resident so far after parsing its command line and when the search starts
(src/image.rs), so each phase maps only its own windows, and callgrind
dumps its profile wherever the run enters the release function (RELEASE).
The
patterns executed by the same runs form a class, and `arrange` orders the
classes so that the runs map few pages, each run's pages counted by its
weight in RUNS: the small runs scripts/rumur-compare.sh sets against Rumur
weigh most, then their B twins, then the rest. Heavier runs decide first:
the classes are grouped by the heaviest runs that execute them and the
groups ordered, then the subgroups within each group by the runs of the
next weight, and so on. It prints each run's resident code under the
layout. Within a class, the functions more runs execute come first, then
the hottest (their own instructions in the one-thread runs), then by name,
so that regenerating does not move the hot loops by chance (README, code
placement).
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
lackey sees the heaviest runs read (those read in later phases first),
and those a native run
faults on (perf; what the kernel reads for a system call, and CPU- or
timing-dependent paths such as float formatting), then all merged strings
and constants, and the data of the executed C library members (tunables,
CPU cache tables, search paths) and mimalloc's; right after them the two
sections every start reads a word of (the debugger's script section and
the start of the unwind tables). Rust's anonymous constants
are numbered per code-generation unit and renumbered when its code changes:
every constant of each unit read follows, at the start of the rest of the
read-only data, so that stale numbers still find them together. A small
run read its data in 9 windows, then 7, now 4. A run under valgrind does not
start quite as a native one (no vDSO to register), so the few functions
only a native start runs are listed by hand (NATIVE_START), and so are
the contended lock paths only native runs of two threads take
(NATIVE_PARALLEL). A stale script
only costs memory, never correctness: a pattern that matches nothing is
ignored and unmatched code keeps the default order.

Usage: scripts/hot-code.py [--check | --code]   (needs valgrind and
                                                 python3; perf if present)
  --check  only report how many of the current patterns match the binary
           and how many 64 KiB windows of code and of read-only data a
           small run maps.
  --code   regenerate the code's layout only (a few minutes) and keep the
           read-only data's (tracing the data with lackey takes about 15
           minutes on two cores).
"""
import bisect
import collections
import concurrent.futures
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

# (front end, weight, arguments after `orbit`): what users run, small enough
# for callgrind. The weight is what a 64 KiB window of the run's code counts
# in the layout (`arrange`): most for the small runs that
# scripts/rumur-compare.sh sets against Rumur's verifiers (whose whole peak
# is about 2 MB), then those whose tables grow (as n_peterson's with 4
# processes do, 22,281 states), then the B twins.
SMALL = ["--no-deadlock", "--json"]
PETERSON = f"{MODELS}/murphi/peterson.m"
RUNS = [
    ("murphi", 4, ["check", PETERSON, "--set", "N=4", "--threads", "1", *SMALL]),
    ("murphi", 4, ["check", PETERSON, "--set", "N=4", "--threads", "2", *SMALL]),
    ("murphi", 4, ["check", PETERSON, "--set", "N=6", "--threads", "1", "--symmetry", "canon", *SMALL]),
    ("murphi", 4, ["check", PETERSON, "--set", "N=6", "--threads", "2", "--symmetry", "canon", *SMALL]),
    ("murphi", 1, ["check", PETERSON, "--set", "N=4", "--threads", "1"]),
    ("murphi", 1, ["check", PETERSON, "--set", "N=4", "--threads", "2", "--symmetry", "canon"]),
    ("murphi", 3, ["check", PETERSON, "--set", "N=5", "--threads", "1", *SMALL]),
    ("murphi", 3, ["check", PETERSON, "--set", "N=5", "--threads", "2", *SMALL]),
    ("murphi", 1, ["check", f"{MODELS}/murphi/german.m", "--set", "NODES=2", "--threads", "2"]),
    ("murphi", 1, ["check", f"{MODELS}/murphi/msg_net.m", "--threads", "2", "--symmetry", "flood"]),
    ("murphi", 1, ["check", f"{MODELS}/murphi/mutex_bug.m", "--threads", "1"]),
    ("murphi", 1, ["check", f"{MODELS}/murphi/features.m", "--threads", "1"]),
    ("b", 2, ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=4", "--threads", "1", *SMALL]),
    ("b", 2, ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=4", "--threads", "2", *SMALL]),
    ("b", 2, ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=6", "--threads", "1", "--symmetry", "canon", *SMALL]),
    ("b", 2, ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=6", "--threads", "2", "--symmetry", "canon", *SMALL]),
    ("b", 1, ["check", f"{MODELS}/scheduler0.mch", "--set", "PROC=3", "--threads", "1"]),
    ("b", 1, ["check", f"{MODELS}/scheduler0.mch", "--set", "PROC=3", "--threads", "2", "--symmetry", "canon", "--json"]),
    ("b", 1, ["check", f"{MODELS}/PetersonN.mch", "--set", "PID=3", "--threads", "2", "--por"]),
    ("b", 1, ["check", f"{MODELS}/Dining.mch", "--threads", "2", "--symmetry", "markers"]),
    ("b", 1, ["check", f"{MODELS}/TokenRing.mch", "--threads", "1", "--order", "dfs"]),
    ("b", 1, ["check", f"{MODELS}/CountersInv.mch", "--threads", "2"]),
]

# C functions a native start runs and a start under valgrind does not:
# glibc's static start-up builds a link map for the vDSO, which valgrind
# does not provide.
NATIVE_START = ["_dl_new_object", "_dl_setup_hash", "_dl_add_to_namespace_list", "_dl_lookup_symbol_x"]

# Functions (patterns of their mangled names) that native runs of two
# threads execute and runs under valgrind, which serialises threads, do not:
# the contended paths of locks.
NATIVE_PARALLEL = [r"_ZN11parking_lot10raw_rwlock9RawRwLock\w*_slow17h[0-9a-f]{16}E"]

# Read-only data a native run may read and a traced one did not: float
# formatting's tables, which `{:.2}` reads or not depending on the value
# printed (a wall time).
NATIVE_DATA = ["*(.rodata.*flt2dec*)"]

# The function the binary calls after parsing its command line and when the
# search starts, which releases the pages the run made resident so far
# (src/image.rs): a run's code is laid out as one run per phase.
RELEASE = "_ZN5orbit5image23release_read_only_pages17h*E"

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
    """The functions one run executes (callgrind's function names, mangled)
    in each of its phases, each in the order callgrind names them: the
    binary calls RELEASE, which releases the pages the run made resident so
    far, after parsing its command line and when the search starts, and a
    phase ends at each call. Adds each function's own instruction count to
    `cost` if given."""
    out = os.path.join(tmp, "callgrind.out")
    for stale in glob.glob(out + "*"):
        os.remove(stale)
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--dump-before={RELEASE}",
                    f"--callgrind-out-file={out}", exe, *args],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # Dumped at each release: `out.1`, `out.2`, ... the phases before
    # each, `out` the last.
    parts = sorted(glob.glob(out + ".*"), key=lambda path: int(path.rsplit(".", 1)[1]))
    return [functions(path, cost) for path in parts + [out]]


def functions(path, cost):
    """The functions a callgrind profile names as executed, in order; adds
    their own instructions to `cost` if given."""
    names, seen = {}, []
    current, after_call = None, False
    for line in open(path):
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


def rodata_read(exe, args, segment, release=None):
    """The addresses of the read-only segment that one run reads (valgrind's
    lackey traces every load; the kernel's fault-around hides all but the
    first page of each window from a page-fault count). With `release`
    (the address of RELEASE), a list: the addresses read in each phase
    (see `executed`)."""
    lo, hi = segment
    prefixes = "|".join(f"{page:05x}" for page in range(lo >> 12, (hi + 0xfff) >> 12))
    start = f"|^I  {release:08x}," if release is not None else ""
    # The phase counts the release function's entries.
    command = (f"valgrind --tool=lackey --trace-mem=yes --log-fd=9 {shlex.join([exe, *args])} 9>&1 >/dev/null 2>&1"
               f" | grep -E '^ [LM] ({prefixes})[0-9a-f]{{3}},{start}'"
               " | awk '/^I/ { phase++; next } { a = substr($0, 4, 8); if (!seen[phase a]++) print phase + 0, a }'")
    out = subprocess.run(["bash", "-c", command], check=True, capture_output=True, text=True).stdout
    reads = [line.split() for line in out.splitlines()]
    phases = [set() for _ in range(1 + max((int(p) for p, _ in reads), default=0))]
    for p, a in reads:
        phases[int(p)].add(int(a, 16))
    return phases if release is not None else set().union(*phases)


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


def rodata_patterns(reads, sections, paths, latest=None):
    """Linker-script patterns for the input sections that hold `reads`:
    (hot, large, units). `hot`, those read in later phases first (`latest`:
    address -> the last phase that reads it, see `executed`), then most
    read first: each anonymous constant
    read (`.rodata..Lanon.HASH.N`, by its number, which changes whenever
    its code-generation unit does), a Rust function's own constants
    (`.rodata.NAME`, its jump tables) by name as the code patterns are, the
    C library's by archive member. `large`: C library members of more than
    16 KB (a locale's tables, of which a run reads a few hundred bytes at
    their start). `units`: all the anonymous constants of each unit read,
    by HASH, which survive a change of the numbers. Merged strings and
    constants (`<internal>`) cannot be told apart here."""
    starts = [s[0] for s in sections]

    def pattern_at(a):
        """(pattern, section length, unit pattern or None) of the input
        section that holds address `a`, or None."""
        i = bisect.bisect_right(starts, a) - 1
        if i < 0 or a >= sections[i][0] + sections[i][1]:
            return None
        _, length, file, section = sections[i]
        m = re.fullmatch(r"\.rodata(\.unlikely|\.\.Lswitch\.table)?\.((_ZN|_R)[A-Za-z0-9_.$]+)", section)
        anon = re.fullmatch(r"\.rodata\.\.Lanon\.([0-9a-f]+)\.\d+", section)
        member = re.search(r"/(lib[^/]*\.a)\(([^)]+)\)$", file)
        if m:
            key = HASH.sub("17h*E", m.group(2))
            name = key if paths[key] <= 1 else m.group(2)
            return f"*(.rodata{m.group(1) or ''}.{name})", length, None
        if anon:
            return f"*({section})", length, f"*(.rodata..Lanon.{anon.group(1)}.*)"
        if member and section.startswith(".rodata"):
            return f"*lib*.a:{member.group(2)}(.rodata .rodata.*)", length, None
        if re.fullmatch(r"\.rodata\.[A-Za-z_][A-Za-z0-9_]*", section):
            # C compiled with data sections (mimalloc's).
            return f"*({section})", length, None
        return None

    count, size = collections.Counter(), {}
    units = collections.Counter()
    for a in reads:
        found = pattern_at(a)
        if not found:
            continue
        pattern, length, unit = found
        if unit:
            units[unit] += 1
        count[pattern] += 1
        size[pattern] = size.get(pattern, 0) + length
    last = collections.Counter()
    for a, phase in (latest or {}).items():
        found = pattern_at(a)
        if found:
            last[found[0]] = max(last[found[0]], phase)
    ranked = sorted(count, key=lambda p: (-last[p], -count[p]))
    hot = [p for p in ranked if size[p] <= 16 << 10]
    large = [p for p in ranked if size[p] > 16 << 10]
    return hot, large, [p for p, _ in units.most_common()]


def windows(exe, names):
    syms = symbols(exe)
    wins = set()
    for n in names:
        if n in syms:
            a, s = syms[n]
            wins.update(range(a // WINDOW, (a + max(s, 1) - 1) // WINDOW + 1))
    return len(wins)


def pattern_of(name, paths, crt, members, syms):
    """The linker-script pattern that places the function `name`, or None.
    Rust functions by name, with the hash as `*` where one function has
    that path; the start-up objects' code by object; the C library's by
    archive member; C compiled with function sections (mimalloc; GCC puts
    constructors in .text.startup and destructors in .text.exit) by name."""
    if name.startswith(("_ZN", "_R")):
        if not re.fullmatch(r"[A-Za-z0-9_.$]+", name):
            return None
        key = HASH.sub("17h*E", name)
        name = key if paths[key] <= 1 else name
        return f"*(.text.{name} .text.unlikely.{name})"
    if name in crt:
        return f"*{crt[name]}(.text)"
    if name in members:
        return f"*lib*.a:{members[name]}(.text .text.*)"
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) and name in syms:
        return f"*(.text.{name} .text.startup.{name} .text.exit.{name})"
    return None


def pattern_sizes(syms, paths, crt, members):
    """Bytes of code each pattern places: every function it matches, each
    starting on a 64-byte line (`-align-all-functions=6`)."""
    size = collections.Counter()
    for name, (_, length) in syms.items():
        p = pattern_of(name, paths, crt, members, syms)
        if p:
            size[p] += (length + 63) // 64 * 64
    return size


def resident(begin, end, shift):
    """The pages (a bit mask of page numbers) that touching code in
    [begin, end) makes resident: the kernel maps the 64 KiB window of
    addresses around a page that faults (fault-around), and the page cache
    holds the file in folios of up to 64 KiB aligned in the file, whose
    offsets are the addresses less `shift`; either can reach beyond the
    code touched, so a run pays for the windows of both alignments."""
    low = min(begin & ~(WINDOW - 1), ((begin - shift) & ~(WINDOW - 1)) + shift)
    high = max(((end - 1) | (WINDOW - 1)) + 1, (((end - 1 - shift) | (WINDOW - 1)) + 1) + shift)
    return ((1 << ((high - low) >> 12)) - 1) << (low >> 12)


def arrange(classes, size, weight, head, start, shift):
    """Orders the classes of patterns (each the patterns executed by the
    same set of runs) so that the runs map few pages: the sum over runs of
    `weight[run]` times the pages made resident (`resident`) by its code,
    the code from `head` to `start` (which every run executes) and the
    classes laid out from `start`, first. Heavier runs decide first: the
    classes are grouped by the heaviest runs that execute them, those groups
    are ordered, then within each group the subgroups by the runs of the
    next weight, and so on down to single classes. At each level a group is
    moved to the place among its siblings that lowers the sum most, until no
    move does (within a class the order stays the one given). Returns the
    order, the sums before and after, and each run's pages, in pages of
    4 KiB."""
    common = resident(head, start, shift) if start > head else 0
    weights = sorted(set(weight), reverse=True)

    def key(signature, level):
        return tuple(frozenset(r for r in signature if weight[r] >= w) for w in weights[: level + 1])

    def per_run(order):
        masks = [common] * len(weight)
        offset = start
        for signature in order:
            length = size[signature]
            if length:
                pages = resident(offset, offset + length, shift)
                for r in signature:
                    masks[r] |= pages
            offset += length
        return [bin(m).count("1") for m in masks]

    def cost(order):
        return sum(w * pages for w, pages in zip(weight, per_run(order)))

    # Groups contiguous at every level: the given order, stably grouped by
    # the first appearance of each level's key.
    first = {}
    for i, signature in enumerate(classes):
        for level in range(len(weights)):
            first.setdefault(key(signature, level), i)
    order = sorted(classes, key=lambda c: [first[key(c, level)] for level in range(len(weights))])
    initial = best = cost(order)
    for level in range(len(weights)):
        improved = True
        while improved:
            improved = False
            for group in dict.fromkeys(key(c, level) for c in order):
                members = [c for c in order if key(c, level) == group]
                rest = [c for c in order if key(c, level) != group]
                # Places among the siblings: the boundaries between groups
                # of the same parent, and the parent's ends.
                parent = group[:-1]
                places = [j for j in range(len(rest) + 1)
                          if (j > 0 and key(rest[j - 1], level)[:-1] == parent
                              or j < len(rest) and key(rest[j], level)[:-1] == parent)
                          and (j == 0 or j == len(rest) or key(rest[j - 1], level) != key(rest[j], level))]
                if not places:
                    continue
                value, j = min((cost(rest[:j] + members + rest[j:]), j) for j in places)
                if value < best:
                    best, order, improved = value, rest[:j] + members + rest[j:], True
    return order, initial, best, per_run(order)


def code_patterns(exe, tmp, syms, paths, members, every):
    """The `.text.executed` patterns: the IFUNC stubs and the start-up
    objects' code, the AVX-512 variants of the C library's string
    functions, the code the runs execute laid out by `arrange`, then the
    other variants; and the C library members executed."""
    crt = startup_objects()
    runs = []
    # Own instructions of each function in the one-thread runs (whose
    # counts do not depend on timing).
    cost = collections.Counter()
    contended = [n for n in syms if any(re.fullmatch(p, n) for p in NATIVE_PARALLEL)]
    # The number of phases of each run.
    shape = []
    for front, weight, args in RUNS:
        one_thread = args[args.index("--threads") + 1] == "1"
        phases = executed(exe, args, tmp, cost if one_thread else None)
        phases[0] = phases[0] + NATIVE_START
        phases[-1] = phases[-1] + (contended if not one_thread else [])
        # Each phase of a run counts as a run of its own: the pages start-up
        # made resident are released at the end of each (see `executed`).
        for names in phases:
            runs.append((front, weight, set(names)))
        shape.append(len(phases))
        print(f"{' + '.join(f'{len(names):4}' for names in phases)} functions: "
              f"orbit {' '.join(args).replace(ROOT + '/', '')}", file=sys.stderr)
    sets = [names for _, _, names in runs]

    def rank(n):
        # The functions more runs execute first, and of those the hottest
        # first (by powers of two of their instructions, then by name): the
        # interpreters' and the engine's hot loops together, in an order
        # that does not change from one regeneration to the next. The order
        # in which callgrind meets functions does (with two threads), and
        # with it the hot loops' offsets in their pages: German with 4 nodes
        # took 1.69 s or 1.81 s at one thread in builds that differed in
        # that order alone.
        return (-sum(1 for s in sets if n in s), -cost[n].bit_length(), n)

    order = sorted(set().union(*sets), key=rank)
    signature = collections.defaultdict(set)
    placed = []
    for n in order:
        p = pattern_of(n, paths, crt, members, syms)
        if p:
            placed.append(p)
            signature[p] |= {r for r, s in enumerate(sets) if n in s}
    placed = list(dict.fromkeys(placed))
    c_members = list(dict.fromkeys(members[n] for n in order
                                   if n in members and not n.startswith(("_ZN", "_R"))))
    other_variants = variants(set(c_members), every)
    # First the stubs through which calls to IFUNC-resolved C functions
    # (memcpy, strlen, ...) jump, and the start-up objects' code
    # (crtbeginT.o's frame_dummy runs before callgrind names a function).
    # Then the AVX-512 variants of the C library's string functions (see
    # `variants`): callgrind never runs them, and a CPU that has AVX-512
    # (most x86-64 servers of recent years) runs some on every start.
    head = ["*(.iplt)", "*crtbeginT.o(.text)"]
    head += [f"*lib*.a:{m}(.text .text.*)" for m in other_variants if widest(m)]
    size = pattern_sizes(syms, paths, crt, members)
    # Patterns executed by the same runs form a class, laid out as one.
    classes = collections.defaultdict(list)
    for p in placed:
        if p not in head:
            classes[frozenset(signature[p])].append(p)
    class_size = {c: sum(size[p] for p in ps) for c, ps in classes.items()}
    text, shift = executed_start(exe)
    start = text + sum(size[p] for p in head)
    weight = [w for _, w, _ in runs]
    layout, initial, final, pages = arrange(classes, class_size, weight, text, start, shift)
    print(f"{len(classes)} classes of executed code; weighted resident pages of the runs {initial} -> {final}",
          file=sys.stderr)
    offsets = [sum(shape[:i]) for i in range(len(shape))]
    for (_, w, args), first, count in zip(RUNS, offsets, shape):
        by_phase = " / ".join(f"{n * 4}" for n in pages[first:first + count])
        print(f"{by_phase} KB of code resident by phase (weight {w}): orbit {' '.join(args).replace(ROOT + '/', '')}",
              file=sys.stderr)
    patterns = head + [p for c in layout for p in classes[c]]
    patterns += [f"*lib*.a:{m}(.text .text.*)" for m in other_variants if not widest(m)]
    return list(dict.fromkeys(patterns)), c_members


def executed_start(exe):
    """The address of `.text.executed` (or of `.text` in a binary linked
    without the script), and how far the addresses of the code's segment
    are from its offsets in the file, modulo 64 KiB."""
    out = subprocess.run(["readelf", "-lSW", exe], check=True, capture_output=True, text=True).stdout
    found, shift = {}, 0
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)", line)
        if m:
            found[m.group(1)] = int(m.group(2), 16)
        p = line.split()
        if p[:1] == ["LOAD"] and p[6:8] == ["R", "E"]:
            shift = (int(p[2], 16) - int(p[1], 16)) % WINDOW
    return found.get(".text.executed", found.get(".text", 0)), shift


def data_sections(exe, link_map, tmp, c_members, paths, reads_of):
    """The script's read-only data sections (see the module's doc comment),
    as linker-script text: the data runs read, the two sections every start
    reads a word of, and the constants of the units read."""
    # Traced on the runs that weigh most in the code's layout, two at a time
    # (lackey is much slower than callgrind: about 15 minutes for these on
    # two cores; the data a run reads is mostly its front end's and the
    # command line's, and a run of the other front end finds the constants
    # of each unit read together, see `data_units`).
    segment = rodata_segment(exe)
    sections = input_sections(link_map, segment)
    reads, latest = set(), {}
    heaviest = max(weight for _, weight, _ in RUNS)
    traced = [args for _, weight, args in RUNS if weight == heaviest]
    syms = symbols(exe)
    release = next(a for n, (a, _) in syms.items() if re.fullmatch(RELEASE.replace("*", "[0-9a-f]{16}"), n))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        found = pool.map(lambda args: rodata_read(exe, args, segment, release), traced)
        for args, phases in zip(traced, found):
            for phase, addresses in enumerate(phases):
                for a in addresses:
                    latest[a] = max(latest.get(a, 0), phase)
            reads |= set().union(*phases) | rodata_faulted(exe, args, segment, tmp)
            print(f"{len(reads):5} addresses of read-only data read so far, by phase "
                  f"{'/'.join(str(len(p)) for p in phases)}: orbit {' '.join(args).replace(ROOT + '/', '')}",
                  file=sys.stderr)
    hot_data, large_data, data_units = rodata_patterns(reads, sections, paths, latest)
    # A native run's reads that the current script already places do not
    # fault: keep the anonymous constants it places by number while the
    # link map still has them.
    placeable = {f"*({section})" for _, _, _, section in sections}
    hot_data += [p for p in placed_constants() if p in placeable and p not in hot_data]
    # The read-only data, next to the ELF headers a run reads anyway: what
    # the traced runs read (the C library's tunables, CPU cache tables and
    # locale; mimalloc's; Rust's functions' jump tables and constants),
    # every merged string and constant, the data of float formatting
    # (NATIVE_DATA), the rest of the executed C library members' data and
    # mimalloc's, and the C library's large tables.
    text = "SECTIONS {\n  .rodata.executed : {\n"
    c_data = [f"*lib*.a:{r}(.rodata .rodata.*)" for m in c_members for r in [m, *sorted(reads_of.get(m, ()))]]
    merged = ["*(.rodata.str* .rodata.cst*)"]
    rest = ["*mimalloc*:*(.rodata .rodata.*)"]
    for p in dict.fromkeys(hot_data + merged + NATIVE_DATA + c_data + rest + large_data):
        text += f"    {p}\n"
    text += "  }\n} INSERT BEFORE .gcc_except_table;\n"
    # Right after it, two sections every run reads a word of: rustc's main
    # loads the first byte of the debugger's script section (to keep it),
    # and the C start-up code registers the unwind tables with libgcc, which
    # reads the first word of `.eh_frame`. Left at their default places,
    # each cost every run a 64 KiB window of its own.
    text += "SECTIONS {\n  .debug_gdb_scripts : { KEEP(*(.debug_gdb_scripts)) }\n"
    text += "  .eh_frame : { KEEP(*(.eh_frame)) }\n} INSERT BEFORE .gcc_except_table;\n"
    # Then, at the start of the other read-only data, every anonymous
    # constant of each unit read: the constants that a change of the code
    # renumbers are found together there until the script is run again.
    text += "SECTIONS {\n  .rodata.units : {\n"
    for p in data_units:
        text += f"    {p}\n"
    text += "  }\n} INSERT BEFORE .rodata;\n"
    return text


def generate(exe, link_map, code_only):
    syms = symbols(exe)
    paths = collections.Counter(HASH.sub("17h*E", n) for n in syms)
    members, every, reads_of = archive_members()
    with tempfile.TemporaryDirectory() as tmp:
        patterns, c_members = code_patterns(exe, tmp, syms, paths, members, every)
        if code_only:
            current = open(SCRIPT).read()
            data = current[current.index("SECTIONS {\n  .rodata.executed"):]
        else:
            data = data_sections(exe, link_map, tmp, c_members, paths, reads_of)
    with open(SCRIPT, "w") as f:
        f.write("/* Generated by scripts/hot-code.py: the code representative runs execute,\n"
                "   placed first so that a run maps few 64 KiB code windows. Read by build.rs\n"
                "   for the release binary. Regenerate after large changes. */\n")
        f.write("SECTIONS {\n  .text.executed : {\n")
        for p in patterns:
            f.write(f"    {p}\n")
        f.write("  }\n} INSERT BEFORE .text;\n")
        f.write(data)
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
        for front, _, args in firsts:
            names = [n for phase in executed(exe, args, tmp) for n in phase]
            data = rodata_read(exe, args, segment) | rodata_faulted(exe, args, segment, tmp)
            print(f"{windows(exe, names):4} code windows and {len({a // WINDOW for a in data}):2} read-only data windows "
                  f"of 64 KiB: orbit {' '.join(args).replace(ROOT + '/', '')}")


if __name__ == "__main__":
    exe, link_map = binary()
    if sys.argv[1:] == ["--check"]:
        check(exe)
    elif sys.argv[1:] == ["--code"]:
        generate(exe, link_map, code_only=True)
    elif sys.argv[1:]:
        sys.exit(__doc__)
    elif not link_map or not os.path.exists(link_map):
        sys.exit("no link map of the release binary (build.rs writes it on x86-64 Linux)")
    else:
        generate(exe, link_map, code_only=False)
