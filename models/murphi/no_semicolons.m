-- Declarations as Rumur reads them: constants, types, record fields,
-- variables and aliases need no `;` between them.
const
  N: 3
  M: 2
type
  Idx: 1..N
  Rec: record
    a: 0..M
    b: boolean
  end
var
  r: array[Idx] of Rec
startstate
  for i: Idx do r[i].a := 0; r[i].b := false; endfor;
endstartstate
ruleset i: Idx do
  rule "inc" r[i].a < M ==> alias x: r[i].a y: r[i].b do x := x + 1; y := !y; endalias; endrule;
endruleset;
rule "restart" forall i: Idx do r[i].a = M endforall ==>
  for i: Idx do r[i].a := 0 endfor;
endrule;
invariant "bounded" forall i: Idx do r[i].a <= M endforall;
