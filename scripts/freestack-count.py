#!/usr/bin/env python3
"""Brute-force count of models/FreeStack.mch, written apart from orbit.

Usage: python3 scripts/freestack-count.py PROC

Prints the reachable states, the operation transitions (one per explored
state and enabled operation instance) and the orbits of the states under
every permutation of PROC, by breadth-first search over a direct
transcription of the machine's operations (the stack as a tuple, latest
first). models/EXPECTED.md ("Free types") quotes its output and
tests/it/models.rs checks orbit against it.
"""
import itertools, sys
from collections import deque
N = int(sys.argv[1])
P = range(N)
IDLE, WAITING, HOLD_F, HOLD_T = "idle", "waiting", "holding(FALSE)", "holding(TRUE)"
init = ((), (IDLE,) * N)
def succ(s):
    stack, status = s
    out = []
    for p in P:
        if status[p] == IDLE:
            st = list(status); st[p] = WAITING
            out.append(((p,) + stack, tuple(st)))
    if stack and all(x in (IDLE, WAITING) for x in status):
        st = list(status); st[stack[0]] = HOLD_F
        out.append((stack[1:], tuple(st)))
    for p in P:
        if status[p] == HOLD_F:
            st = list(status); st[p] = HOLD_T
            out.append((stack, tuple(st)))
    for p in P:
        if status[p] in (HOLD_F, HOLD_T):
            st = list(status); st[p] = IDLE
            out.append((stack, tuple(st)))
    return out
seen = {init}; todo = deque([init]); transitions = 0
while todo:
    ts = succ(todo.popleft()); transitions += len(ts)
    for t in ts:
        if t not in seen:
            seen.add(t); todo.append(t)
def perm(s, pp):
    stack, status = s
    st = [None] * N
    for p in P:
        st[pp[p]] = status[p]
    return (tuple(pp[p] for p in stack), tuple(st))
def canon(s):
    return min(perm(s, pp) for pp in itertools.permutations(P))
print(len(seen), transitions, len({canon(s) for s in seen}))
