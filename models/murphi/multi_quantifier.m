-- CMurphi reads several quantified variables in one `for`, `forall`,
-- `exists` (and, as every Murphi, `ruleset`): `for i : T; j : U do`.
const N: 3;
type Idx: 1..N; Node: scalarset(2);
var m: array[Idx] of array[Node] of boolean;
    c: 0..7;
startstate
  for i: Idx; n: Node do m[i][n] := false; endfor;
  c := 0;
endstartstate;
ruleset i: Idx; n: Node do
  rule "set" !m[i][n] & c < 4 ==> m[i][n] := true; c := c + 1; endrule;
endruleset;
rule "reset" forall i: Idx; n: Node do m[i][n] endforall ==> for i: Idx; n: Node do m[i][n] := false; endfor; c := 0; endrule;
invariant "count" c <= 4 & (exists i: Idx; n: Node do m[i][n] endexists -> c > 0);
