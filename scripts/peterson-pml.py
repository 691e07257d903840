#!/usr/bin/env python3
"""Prints the symmetry-markers paper's Peterson model (its Fig. 3) for N processes:
   python3 scripts/peterson-pml.py N > peterson.pml"""
import sys
n=int(sys.argv[1])
ok=" &&\n                ".join(f"((_pid=={i})||(_pid!={i} && flag[{i}]<k))" for i in range(1,n+1))
runs=" ".join("run user();" for _ in range(n))
print(f"""byte flag[{n+1}] = 0;
pid turn[{n}] = 0;
byte inCR = 0
proctype user () {{
    byte k; bool ok;
    do :: k = 1;
        do :: k < {n} -> flag[_pid] = k; turn[k] = _pid;
again:    atomic {{
            ok = {ok};
            if :: ok || turn[k] != _pid
                :: else -> goto again
            fi
        }};
        k++;
    :: else -> break
    od;
    atomic {{ inCR++; assert(inCR == 1) }}; inCR--; flag[_pid] = 0;
od;
}}
init {{
    atomic{{ {runs} }}
}}""")
