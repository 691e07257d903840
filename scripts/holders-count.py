#!/usr/bin/env python3
"""Brute-force count of models/Holders.mch, written apart from orbit.

Usage: python3 scripts/holders-count.py PROC RES

Prints the reachable states, the operation transitions (one per explored
state and enabled operation instance) and the orbits of the states under
every permutation of PROC and of RES, by breadth-first search over a direct
transcription of the machine's operations. models/EXPECTED.md ("Packed
functions") quotes its output and tests/it/models.rs checks orbit against it.
"""
import itertools, sys
from collections import deque
N, R = int(sys.argv[1]), int(sys.argv[2])
P, RS = range(N), range(R)
IDLE, WAIT, BUSY = 0, 1, 2
def key(active, phase, held, knows):
    return (frozenset(active), frozenset(phase.items()), tuple(held), frozenset(knows))
init = (frozenset(), frozenset(), tuple(frozenset() for _ in P), frozenset())
def succ(s):
    active, phase, held, knows = set(s[0]), dict(s[1]), list(s[2]), set(s[3])
    out = []
    for p in P:
        if p not in active:
            a = active | {p}; ph = dict(phase); ph[p] = IDLE
            out.append(key(a, ph, held, knows))
        else:
            if phase[p] == IDLE:
                a = active - {p}; ph = dict(phase); del ph[p]
                out.append(key(a, ph, held, knows))
                ph = dict(phase); ph[p] = WAIT
                out.append(key(active, ph, held, knows))
            if phase[p] in (WAIT, BUSY):
                for r in RS:
                    if all(r not in held[q] for q in P):
                        h = list(held); h[p] = h[p] | {r}; ph = dict(phase); ph[p] = BUSY
                        out.append(key(active, ph, h, knows))
            if phase[p] == BUSY:
                h = list(held); h[p] = frozenset(); ph = dict(phase); ph[p] = IDLE
                out.append(key(active, ph, h, knows))
            for q in active:
                if q != p and (p, q) not in knows:
                    out.append(key(active, phase, held, knows | {(p, q)}))
    return out
seen = {init}; todo = deque([init]); transitions = 0
while todo:
    ts = succ(todo.popleft()); transitions += len(ts)
    for t in ts:
        if t not in seen:
            seen.add(t); todo.append(t)
def perm(s, pp, rp):
    return (frozenset(pp[p] for p in s[0]), frozenset((pp[p], v) for p, v in s[1]),
            tuple(frozenset(rp[r] for r in s[2][pp.index(q)]) for q in P),
            frozenset((pp[a], pp[b]) for a, b in s[3]))
def norm(s):
    return (tuple(sorted(s[0])), tuple(sorted(s[1])), tuple(tuple(sorted(h)) for h in s[2]), tuple(sorted(s[3])))
def canon(s):
    return min(norm(perm(s, list(pp), list(rp))) for pp in itertools.permutations(P) for rp in itertools.permutations(RS))
print(len(seen), transitions, len({canon(s) for s in seen}))
