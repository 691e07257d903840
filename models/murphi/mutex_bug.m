-- A broken lock (written for orbit's tests): a process tests the flag and
-- sets it in two steps, so two processes can both enter.

const N: 2;
type pid: scalarset(N);
var
  busy: boolean;
  pc: array [pid] of enum {idle, tested, crit};

startstate
begin
  busy := false;
  for p: pid do pc[p] := idle; endfor;
end;

ruleset p: pid do
  rule "test" pc[p] = idle & !busy ==> begin pc[p] := tested; end;
  rule "set" pc[p] = tested ==> begin busy := true; pc[p] := crit; end;
  rule "leave" pc[p] = crit ==> begin busy := false; pc[p] := idle; end;
endruleset;

invariant "mutual exclusion"
  forall p: pid do forall q: pid do p != q -> !(pc[p] = crit & pc[q] = crit) endforall endforall;
